package testscripts

import (
	"errors"
	"os/exec"
	"strconv"

	"github.com/rogpeppe/go-internal/testscript"
)

type scriptCmd = func(ts *testscript.TestScript, neg bool, args []string)

// extra holds commands registered by the per-area files (commands_*.go)
// through register, so areas can add commands without editing this file.
var extra = map[string]scriptCmd{}

func register(name string, fn scriptCmd) { extra[name] = fn }

// Commands are custom script commands shared by all scripts. Keep them
// few: scripts should read as shell sessions a user could type.
func Commands() map[string]scriptCmd {
	cmds := map[string]scriptCmd{"exits": exits}
	for k, v := range extra {
		cmds[k] = v
	}
	return cmds
}

// exits N prog args... runs prog and asserts its exit status is exactly N
// (the toolkit's exit codes are a contract, not just zero/non-zero). Its
// stdout and stderr are kept for the following stdout/stderr checks.
func exits(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: exits CODE program [args...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("exits: %q is not a number", args[0])
	}
	err = ts.Exec(args[1], args[2:]...)
	got := 0
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		got = ee.ExitCode()
	case err != nil:
		ts.Fatalf("exits: %v", err)
	}
	if got != want {
		ts.Fatalf("%s exited %d, want %d", args[1], got, want)
	}
}
