package agent

import (
	"regexp"
	"strings"
)

// quotedCommand finds `command` spans in a request.
var quotedCommand = regexp.MustCompile("`([^`\n]+)`")

// testRunners are the programs whose invocation, quoted in a request, is
// taken as the task's verification command.
var testRunners = []string{"cargo test", "go test", "npm test", "pnpm test", "yarn test", "pytest", "python -m pytest", "make test", "make check", "ctest", "mvn test", "gradle test", "./gradlew test", "dotnet test", "mix test", "bundle exec rspec", "rspec"}

// VerifyFromRequest returns the verification command a request names in
// backquotes (e.g. "make `cargo test` pass"), or "" when it names none. It
// is the last source, after --verify and harness.verify_command.
func VerifyFromRequest(request string) string {
	for _, m := range quotedCommand.FindAllStringSubmatch(request, -1) {
		cmd := strings.TrimSpace(m[1])
		for _, r := range testRunners {
			if cmd == r || strings.HasPrefix(cmd, r+" ") {
				return cmd
			}
		}
	}
	return ""
}
