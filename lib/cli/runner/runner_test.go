package runner

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/urfave/cli/v3"
)

func tree() *cli.Command {
	return &cli.Command{
		Name: "demo",
		Commands: []*cli.Command{
			{Name: "ok", Action: func(context.Context, *cli.Command) error { return nil }},
			{Name: "busy", Action: func(context.Context, *cli.Command) error {
				return core.Errorf(core.CodeWorkspaceBusy, "another process owns the workspace").WithHint("wait for it")
			}},
			{Name: "quiet", Action: func(context.Context, *cli.Command) error { return Silent{Code: 6} }},
			{Name: "flags", Flags: []cli.Flag{&cli.IntFlag{Name: "n"}}, Action: func(context.Context, *cli.Command) error { return nil }},
		},
	}
}

func run(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := Run(context.Background(), tree(), append([]string{"demo"}, args...), &out, &errb)
	return code, out.String(), errb.String()
}

func TestExitCodesAndMessages(t *testing.T) {
	if code, _, _ := run("ok"); code != 0 {
		t.Fatalf("ok exited %d", code)
	}
	code, _, stderr := run("busy")
	if code != 11 || !strings.Contains(stderr, "demo: another process owns the workspace") || !strings.Contains(stderr, "hint: wait for it") {
		t.Fatalf("busy: code %d stderr %q", code, stderr)
	}
	if code, _, stderr := run("quiet"); code != 6 || stderr != "" {
		t.Fatalf("silent: %d %q", code, stderr)
	}
}

func TestUsageErrorsExit2(t *testing.T) {
	code, _, stderr := run("flags", "--bogus")
	if code != 2 || !strings.Contains(stderr, "bogus") || !strings.Contains(stderr, "hint:") {
		t.Fatalf("bad flag: code %d stderr %q", code, stderr)
	}
	code, _, stderr = run("flags", "--n", "notanumber")
	if code != 2 {
		t.Fatalf("bad value: code %d stderr %q", code, stderr)
	}
	code, _, stderr = run("nosuch")
	if code != 2 || !strings.Contains(stderr, "available: ok, busy, quiet, flags") {
		t.Fatalf("unknown subcommand: code %d stderr %q", code, stderr)
	}
}

func TestBadFlagValuesSayWhatIsExpected(t *testing.T) {
	code, _, stderr := run("flags", "--n", "notanumber")
	if code != 2 || !strings.Contains(stderr, `invalid value "notanumber" for -n: expected a whole number`) || strings.Contains(stderr, "strconv") {
		t.Fatalf("bad int value: code %d stderr %q", code, stderr)
	}
	if got := friendlyFlagError(`invalid value "x" for flag -timeout: time: invalid duration "x"`); got != `invalid value "x" for --timeout: expected a duration such as 30s, 5m or 1h` {
		t.Fatalf("duration: %q", got)
	}
	if got := friendlyFlagError("flag needs an argument: --addr"); got != "flag needs an argument: --addr" {
		t.Fatalf("other errors must pass unchanged: %q", got)
	}
}
