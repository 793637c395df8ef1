package agent

import (
	"context"
	"os"

	"github.com/josecorral/fluzo/lib/tools/gitx"
)

// gitBaseline is the small environment git is given: no provider secrets
// or BASH_ENV, only what git needs to find itself, the user's own
// configuration and a commit identity.
func gitBaseline() []string {
	var env []string
	for _, k := range []string{"PATH", "HOME", "XDG_CONFIG_HOME", "GIT_CONFIG_NOSYSTEM", "GIT_CONFIG_GLOBAL", "GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL"} {
		if v, ok := os.LookupEnv(k); ok {
			env = append(env, k+"="+v)
		}
	}
	return env
}

// GitTopLevel returns the top level of the git working tree containing
// dir, or configuration_required when dir is not in one. It locates the
// owner's own directory (where the store and the control socket live),
// never the workspace the task changes: that one is read only through the
// tool backend (workspace_reads_test.go checks).
func GitTopLevel(ctx context.Context, dir string) (string, error) {
	return gitx.TopLevel(ctx, dir, gitBaseline())
}
