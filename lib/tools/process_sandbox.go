package tools

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/tools/sandbox"
	"golang.org/x/sys/unix"
)

// commandSandbox is what runProcess needs to confine one command (see
// sandbox.Wrap, the one rule shared with the agent's MCP servers).
type commandSandbox struct {
	argv      []string
	env       []string
	effective sandbox.Effective
	// prepare adds namespaces to the spawn (nil: none).
	prepare func(*syscall.SysProcAttr)
	// reaper: the launcher runs the command as its PID namespace's init
	// and takes the control socket (proc.Spec.Reaper).
	reaper bool
}

// sandboxCommand wraps argv (argv[0] resolved) in the sandbox launcher
// with the command's private TMPDIR.
func (s *Server) sandboxCommand(argv, env []string, cwd string) (*commandSandbox, error) {
	tmp, err := s.privateTemp()
	if err != nil {
		return nil, err
	}
	c, err := sandbox.Wrap(sandbox.Request{Settings: s.opts.Sandbox, Launcher: s.opts.Launcher, Argv: argv, Env: setEnv(env, "TMPDIR", tmp),
		Workspace: s.root.Dir(), Temp: tmp, Cwd: cwd, Binds: &s.binds,
		Unset: "the program embedding fluzo-tool's server configured no sandbox", Control: true})
	if err != nil {
		return nil, err
	}
	return &commandSandbox{argv: c.Argv, env: c.Env, effective: c.Effective, prepare: c.Prepare, reaper: c.Control}, nil
}

// refusalSigns are how programs report an access the sandbox refused.
var refusalSigns = []string{"Permission denied", "Read-only file system", "Operation not permitted", "EACCES", "EPERM", "EROFS"}

// explainRefusals keeps the "refuses" explanation only in the result of a
// command whose output shows a refusal: every other result stays short,
// since each one enters the model's context.
func (b *commandSandbox) explainRefusals(output string) {
	for _, sign := range refusalSigns {
		if strings.Contains(output, sign) {
			return
		}
	}
	b.effective.Refuses = ""
}

// tempPrefix names the commands' private temporary directories.
const tempPrefix = "fluzo-tool-tmp-"

// privateTemp creates, once per server, the temporary directory its
// commands get as TMPDIR, so one task's commands never see another's
// files (or the user's) in a shared /tmp; Close removes it. The server
// holds a lock on it for its lifetime, so a later server can tell the
// directory of one that was killed (lock free) from a live one's.
func (s *Server) privateTemp() (string, error) {
	s.tmpOnce.Do(func() { s.tmpDir, s.tmpLock, s.tmpErr = newLockedTemp() })
	if s.tmpErr != nil {
		return "", core.Wrap(s.tmpErr, core.CodeFailed, "cannot create the commands' private temporary directory").
			WithHint("check that $TMPDIR (or /tmp) exists and is writable")
	}
	return s.tmpDir, nil
}

// creatingPrefix names a private temporary directory between its creation
// and its lock: removeStaleTemps leaves such a name alone unless it is
// older than abandonedCreation (a server killed right there).
const (
	creatingPrefix    = "fluzo-tool-new-"
	abandonedCreation = time.Minute
)

// newLockedTemp creates a private temporary directory and locks it. It is
// created under a name the cleanup of other servers does not take, locked,
// and only then renamed to its final name (the lock belongs to the open
// directory and moves with it), so no cleanup can remove it in between.
func newLockedTemp() (string, *os.File, error) {
	var err error
	for range 4 {
		var dir string
		if dir, err = os.MkdirTemp("", creatingPrefix); err != nil {
			return "", nil, err
		}
		var f *os.File
		if f, err = lockDir(dir, unix.LOCK_EX); err != nil {
			os.Remove(dir)
			return "", nil, err
		}
		final := filepath.Join(filepath.Dir(dir), tempPrefix+strings.TrimPrefix(filepath.Base(dir), creatingPrefix))
		if err = unix.Renameat2(unix.AT_FDCWD, dir, unix.AT_FDCWD, final, unix.RENAME_NOREPLACE); err == nil {
			return final, f, nil
		}
		f.Close()
		os.Remove(dir)
		if err != unix.EEXIST {
			return "", nil, &os.LinkError{Op: "rename", Old: dir, New: final, Err: err}
		}
	}
	return "", nil, err
}

// lockDir opens dir and takes a non-blocking flock on it.
func lockDir(dir string, how int) (*os.File, error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	if err := unix.Flock(int(f.Fd()), how|unix.LOCK_NB); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// removeStaleTemps deletes the private temporary directories of servers
// that died without cleaning up (their lock is free); a live server's
// directory stays, and so does one being created (newLockedTemp).
func removeStaleTemps() {
	dirs, _ := filepath.Glob(filepath.Join(os.TempDir(), tempPrefix+"*"))
	creating, _ := filepath.Glob(filepath.Join(os.TempDir(), creatingPrefix+"*"))
	for _, d := range creating {
		if fi, err := os.Lstat(d); err == nil && fi.IsDir() && time.Since(fi.ModTime()) > abandonedCreation {
			dirs = append(dirs, d)
		}
	}
	for _, d := range dirs {
		f, err := lockDir(d, unix.LOCK_EX)
		if err != nil {
			continue
		}
		os.RemoveAll(d)
		f.Close()
	}
}

func setEnv(env []string, name, value string) []string {
	out := make([]string, 0, len(env)+1)
	for _, kv := range env {
		if !strings.HasPrefix(kv, name+"=") {
			out = append(out, kv)
		}
	}
	return append(out, name+"="+value)
}
