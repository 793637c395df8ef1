package admit

import (
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"syscall"

	"github.com/josecorral/fluzo/lib/admit"
	"github.com/josecorral/fluzo/lib/cli/runner"
	"github.com/josecorral/fluzo/lib/core"
	"github.com/urfave/cli/v3"
)

const driveName = ".fluzodrive"

func lockCommand() *cli.Command {
	return &cli.Command{
		Name:  "lock",
		Usage: "inspect or hold the workspace-owner lock",
		Commands: []*cli.Command{
			{Name: "status", Usage: "print who owns the workspace as one JSON line (read-only)", Action: lockStatus},
			{Name: "hold", Usage: "own the workspace while COMMAND runs, like flock(1)", ArgsUsage: "[--] COMMAND [ARGS...]",
				Description: `Takes the workspace-owner lock (.fluzodrive/owner.lock), runs COMMAND with
the lock held and releases it. If another process owns the workspace it exits 11
(workspace_busy) naming the owner, without running COMMAND. COMMAND never
outlives the lock: if fluzo-admit dies, the kernel kills COMMAND too. Useful
for maintenance scripts that must not overlap a running agent.`,
				Action: lockHold},
		},
	}
}

func drive(c *cli.Command) string { return filepath.Join(c.String("workspace"), driveName) }

func lockStatus(_ context.Context, c *cli.Command) error {
	st, err := admit.OwnerStatus(drive(c))
	if err != nil {
		return err
	}
	data, _ := json.Marshal(st)
	c.Root().Writer.Write(append(data, '\n'))
	return nil
}

func lockHold(ctx context.Context, c *cli.Command) error {
	args := c.Args().Slice()
	if len(args) > 0 && args[0] == "--" {
		args = args[1:]
	}
	if len(args) == 0 {
		return runner.Usage(c, "hold needs a COMMAND to run")
	}
	owner, err := admit.AcquireOwner(drive(c), admit.OwnerOptions{})
	if err != nil {
		return err
	}
	defer owner.Release()
	cmd := exec.CommandContext(ctx, args[0], args[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, c.Root().Writer, c.Root().ErrWriter
	cmd.Env = append(os.Environ(), "FLUZO_OWNER_INSTANCE="+owner.Record.Instance)
	// COMMAND must never outlive the lock: if this process dies, the
	// kernel kills it. Pdeathsig fires when the forking thread exits, so
	// that thread is kept for the command's lifetime.
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	err = cmd.Run()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		code := ee.ExitCode()
		if code < 0 {
			code = core.ExitCancelled
		}
		return runner.Silent{Code: code}
	case err != nil:
		return startError(args[0], err)
	}
	return nil
}

// startError says why COMMAND did not start, naming the OS error
// (permission denied, exec format error, ...) rather than Go's wording.
func startError(name string, err error) error {
	var errno syscall.Errno
	why := err.Error()
	switch {
	case errors.Is(err, exec.ErrNotFound):
		why = "not found in PATH"
	case errors.As(err, &errno):
		why = errno.Error()
	case errors.Is(err, fs.ErrPermission):
		why = "permission denied"
	case errors.Is(err, fs.ErrNotExist):
		why = "no such file or directory"
	}
	return core.Wrap(err, core.CodeFailed, "cannot run "+name+": "+why).
		WithHint("check the command name, PATH and that the file is an executable you may run")
}
