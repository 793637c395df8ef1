package runner

import (
	"os"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/urfave/cli/v3"
	"golang.org/x/sys/unix"
)

// Undumpable marks this process non-dumpable (prctl PR_SET_DUMPABLE 0):
// other processes of the same user can no longer read its
// /proc/PID/environ or memory, or attach to it. fluzo-agent holds provider
// keys and fluzo-tool runs approved commands as its children, which is why
// both call it first. execve resets the flag, so the commands themselves
// stay ordinary processes.
func Undumpable() error {
	if err := unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0); err != nil {
		return core.Wrap(err, core.CodeFailed, "cannot mark the process non-dumpable (prctl PR_SET_DUMPABLE)").
			WithHint("Fluzo needs Linux prctl; it refuses to run where same-user processes could read its memory")
	}
	return nil
}

// MainUndumpable is Main for a process that holds or sits beside secrets:
// it becomes non-dumpable before it reads any argument, or fails closed.
func MainUndumpable(cmd *cli.Command) int {
	if err := Undumpable(); err != nil {
		return Report(os.Stderr, cmd.Name, err)
	}
	return Main(cmd)
}
