package grantspec

import (
	"testing"

	"github.com/josecorral/fluzo/lib/core"
)

// Every form of the grammar parses to its canonical text; malformed specs
// are usage errors; env values are redacted for display.
func TestSpecGrammar(t *testing.T) {
	good := map[string]string{
		"exec:cargo test":                 "exec:cargo test",
		"exec:git commit -m 'a b'":        "exec:git commit -m 'a b'",
		"shell:cargo test && cargo fmt":   "shell:cargo test && cargo fmt",
		"write:./src/../src/a.rs":         "write:src/a.rs",
		"git_commit":                      "git_commit",
		"network:crates.io":               "network:crates.io",
		"env=B=2 env=A=1 cwd=x exec:make": "cwd=x env=A=1 env=B=2 exec:make",
		"delete:tmp/x@sha256:ab":          "delete:tmp/x@sha256:ab",
	}
	for in, want := range good {
		s, err := Parse(in)
		if err != nil || s.String() != want {
			t.Errorf("%q: %q %v", in, s.String(), err)
		}
	}
	for _, bad := range []string{"", "bogus:::", "exec:", "shell:  ", "write:../x", "write:/etc/x", "git_commit:x", "cwd=x write:a", "fly:x", "exec:'unterminated", "env=1X=2 exec:a", "read:a@v1"} {
		if _, err := Parse(bad); err == nil || core.CodeOf(err) != core.CodeUsage {
			t.Errorf("accepted %q", bad)
		}
	}
	s, _ := Parse("env=TOKEN=abc exec:x")
	if got := s.Redacted(); got != "env=TOKEN=<redacted> exec:x" {
		t.Errorf("redacted %q", got)
	}
}

func TestCheckNamesTheProblem(t *testing.T) {
	if got := Check("bogus:::"); got != `grant "bogus:::": unknown action bogus` {
		t.Errorf("Check = %q", got)
	}
	if got := Check("exec:cargo test"); got != "" {
		t.Errorf("valid spec: %q", got)
	}
}
