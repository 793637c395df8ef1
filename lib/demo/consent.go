package demo

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"strings"

	"github.com/josecorral/fluzo/lib/core"
)

// isolateConsent gives the demo a consent store of its own: a private
// state directory (XDG_STATE_HOME for every demo child) in which
// "fluzo-admit consent grant --yes" records consent for the demo
// workspace, whose only destination is the demo's own simulator. The
// user's consent store is never read or written, and nothing recorded
// here outlives the demo.
func isolateConsent(ctx context.Context, admitPath, dir string) (string, error) {
	state, err := os.MkdirTemp("", "fluzo-demo-state-")
	if err != nil {
		return "", core.Wrap(err, core.CodeFailed, "cannot create the demo's private state directory").WithHint("check that the temporary directory is writable")
	}
	cmd := exec.CommandContext(ctx, admitPath, "-C", dir, "consent", "grant", "--yes")
	cmd.Args[0] = "fluzo-admit"
	cmd.Env = withState(os.Environ(), state)
	var errs bytes.Buffer
	cmd.Stderr = &errs
	if err := cmd.Run(); err != nil {
		os.RemoveAll(state)
		return "", core.Wrap(err, core.CodeFailed, "cannot record the demo's consent: "+strings.TrimSpace(errs.String())).
			WithHint("check that fluzo-admit beside fluzo works: fluzo-admit --help")
	}
	return state, nil
}

// withState returns env with XDG_STATE_HOME set to state.
func withState(env []string, state string) []string {
	out := make([]string, 0, len(env)+1)
	for _, kv := range env {
		if !strings.HasPrefix(kv, "XDG_STATE_HOME=") {
			out = append(out, kv)
		}
	}
	return append(out, "XDG_STATE_HOME="+state)
}
