package agent

import (
	"encoding/json"

	"github.com/josecorral/fluzo/lib/cli/runner"
	"github.com/urfave/cli/v3"
)

// backendFlag names the tool backend command for this invocation: one
// JSON array of strings, the argv run without a shell (the same value as
// [tools] backend, which it overrides).
func backendFlag() cli.Flag {
	return &cli.StringFlag{Name: "backend", Usage: "tool backend command `ARGV`, a JSON array run without a shell (overrides tools.backend; see TOOL BACKENDS)"}
}

// ownerOverrides are the --set overrides plus tools.backend from
// --backend, checked here so that a malformed array is a usage error
// naming the flag.
func ownerOverrides(c *cli.Command) ([]string, error) {
	sets := c.StringSlice("set")
	if !c.IsSet("backend") {
		return sets, nil
	}
	var argv []string
	if err := json.Unmarshal([]byte(c.String("backend")), &argv); err != nil {
		return nil, runner.Usage(c, "--backend must be a JSON array of strings such as '[\"ssh\",\"-T\",\"host\",\"fluzo-tool\",\"serve\",\"--root\",\"/srv/repo\"]', got %q", c.String("backend"))
	}
	if len(argv) == 0 || argv[0] == "" {
		return nil, runner.Usage(c, "--backend needs at least the program, e.g. '[\"fluzo-tool\",\"serve\",\"--root\",\"DIR\"]'")
	}
	// JSON's string escapes are TOML's too, so the array is a valid
	// TOML value for the override.
	text, err := json.Marshal(argv)
	if err != nil {
		return nil, runner.Usage(c, "--backend cannot be encoded: %v", err)
	}
	return append(append([]string{}, sets...), "tools.backend="+string(text)), nil
}
