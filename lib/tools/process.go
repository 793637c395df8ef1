package tools

import (
	"context"
	"encoding/json"
	"os"
	"strconv"
	"time"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/tools/proc"
	"github.com/josecorral/fluzo/lib/tools/sandbox"
)

// Process limits.
const (
	DefaultTimeoutSeconds = 120
	MaxTimeoutSeconds     = 24 * 3600
)

type execArgs struct {
	Argv           []string          `json:"argv"`
	Cwd            string            `json:"cwd,omitempty"`
	Env            map[string]string `json:"env,omitempty"`
	TimeoutSeconds float64           `json:"timeout_seconds,omitempty"`
}

type shellArgs struct {
	Script         string            `json:"script"`
	Cwd            string            `json:"cwd,omitempty"`
	Env            map[string]string `json:"env,omitempty"`
	TimeoutSeconds float64           `json:"timeout_seconds,omitempty"`
}

// ProcessResult is what exec and shell return.
type ProcessResult struct {
	Argv []string `json:"argv"`
	Cwd  string   `json:"cwd"`
	PID  int      `json:"pid"`
	// TimeoutSeconds is the timeout applied; TimeoutCapped says the
	// caller's max_seconds shortened the requested one.
	TimeoutSeconds float64 `json:"timeout_seconds"`
	TimeoutCapped  bool    `json:"timeout_capped,omitempty"`
	// Sandbox is the confinement the command ran under.
	Sandbox sandbox.Effective `json:"sandbox"`
	// ProtectedChanged lists protected paths (.git/config, hooks, info/,
	// .fluzo, .fluzodrive) whose identity or content changed while the
	// command ran: never silently "nothing changed".
	ProtectedChanged []sandbox.ProtectedChange `json:"protected_changed,omitempty"`
	proc.Outcome
}

func (s *Server) childEnvOrBaseline() []string {
	env, err := proc.Build(s.opts.ParentEnv, s.opts.Env, nil)
	if err != nil {
		return []string{"PATH=/usr/bin:/bin"}
	}
	return env
}

func runExec(ctx context.Context, s *Server, id string, raw json.RawMessage) (any, error) {
	var a execArgs
	if err := decodeArgs(raw, &a); err != nil {
		return nil, err
	}
	if len(a.Argv) == 0 || a.Argv[0] == "" {
		return nil, core.Errorf(core.CodeInvalidRequest, "argv needs at least the program").WithHint(`send {"argv":["go","test","./..."]}`)
	}
	return s.runProcess(ctx, id, a.Argv, a.Cwd, a.Env, a.TimeoutSeconds)
}

func runShell(ctx context.Context, s *Server, id string, raw json.RawMessage) (any, error) {
	var a shellArgs
	if err := decodeArgs(raw, &a); err != nil {
		return nil, err
	}
	if err := required("script", a.Script); err != nil {
		return nil, err
	}
	return s.runProcess(ctx, id, []string{"/bin/sh", "-c", a.Script}, a.Cwd, a.Env, a.TimeoutSeconds)
}

// runProcess starts argv in a working directory resolved beneath the root.
// The directory is handed to the child as the kernel's /proc link to an
// already-verified descriptor, so a rename between the check and the
// chdir cannot move the child elsewhere.
func (s *Server) runProcess(ctx context.Context, id string, argv []string, cwd string, env map[string]string, timeout float64) (any, error) {
	if timeout < 0 || timeout > MaxTimeoutSeconds {
		return nil, core.Errorf(core.CodeInvalidRequest, "timeout_seconds must be between 0 and %d", MaxTimeoutSeconds).
			WithHint("leave it out for the %d-second default", DefaultTimeoutSeconds)
	}
	if timeout == 0 {
		timeout = DefaultTimeoutSeconds
	}
	timeout, capped := effectiveTimeout(ctx, timeout)
	dir, node, err := s.root.OpenDir(cwdOrRoot(cwd))
	if err != nil {
		return nil, err
	}
	defer dir.Close()
	childEnv, err := proc.Build(s.opts.ParentEnv, s.opts.Env, env)
	if err != nil {
		return nil, err
	}
	childEnv = append(childEnv, "PWD="+joinRoot(s.root.Dir(), node.Rel))
	exe, err := proc.LookPath(argv[0], childEnv)
	if err != nil {
		return nil, err
	}
	box, err := s.sandboxCommand(append([]string{exe}, argv[1:]...), childEnv, joinRoot(s.root.Dir(), node.Rel))
	if err != nil {
		return nil, err
	}
	before := sandbox.CaptureProtected(s.root.Dir())
	p, err := proc.Start(proc.Spec{
		Argv: box.argv, Dir: "/proc/self/fd/" + strconv.Itoa(int(dir.Fd())), Env: box.env,
		Timeout: time.Duration(timeout * float64(time.Second)), Grace: s.opts.Grace, CaptureLimit: s.opts.CaptureLimit,
		// exec and shell hold the exclusive lock: no other child runs.
		AdoptOrphans: s.opts.Subreaper,
		Prepare:      box.prepare,
		Reaper:       box.reaper,
		Track:        s.opts.Keeper.Track,
	})
	if err != nil {
		return nil, err
	}
	out := s.supervise(ctx, id, p)
	changed := sandbox.CompareProtected(before, sandbox.CaptureProtected(s.root.Dir()))
	box.explainRefusals(out.Stdout + out.Stderr)
	return &ProcessResult{Argv: argv, Cwd: node.Rel, PID: p.PID(), TimeoutSeconds: timeout, TimeoutCapped: capped,
		Sandbox: box.effective, ProtectedChanged: changed, Outcome: out}, nil
}

func cwdOrRoot(cwd string) string {
	if cwd == "" {
		return "."
	}
	return cwd
}

func joinRoot(root, rel string) string {
	if rel == "." {
		return root
	}
	return root + string(os.PathSeparator) + rel
}
