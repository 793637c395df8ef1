package agent

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"strings"

	"github.com/josecorral/fluzo/lib/core"
)

// hardenedGitArgs disable every repository-configured helper git could run
// while the runtime only inspects the workspace (DESIGN §7.6): fsmonitor,
// external diff and textconv drivers, pagers, hooks and credential prompts.
var hardenedGitArgs = []string{
	"--no-pager", "--no-optional-locks",
	"-c", "core.fsmonitor=false",
	"-c", "core.untrackedCache=false",
	"-c", "core.hooksPath=/dev/null",
	"-c", "diff.external=",
	"-c", "credential.helper=",
	"-c", "core.pager=cat",
}

// inspectGit runs a read-only git command in dir and returns its stdout.
func inspectGit(ctx context.Context, dir string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "git", append(append([]string{}, hardenedGitArgs...), args...)...)
	cmd.Dir = dir
	cmd.Stdin = nil
	cmd.Env = gitEnv()
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return nil, core.Wrap(err, core.CodeFailed, "git "+args[0]+" failed in "+dir+": "+strings.TrimSpace(errb.String())).
			WithHint("check that the workspace is a git working tree")
	}
	return out.Bytes(), nil
}

// gitEnv is an explicit environment: no provider secrets, no pager or
// prompt, no BASH_ENV, with the identity and HOME git needs.
func gitEnv() []string {
	env := []string{"GIT_TERMINAL_PROMPT=0", "GIT_PAGER=cat", "PAGER=cat", "LC_ALL=C", "GIT_OPTIONAL_LOCKS=0"}
	for _, k := range []string{"PATH", "HOME", "GIT_CONFIG_NOSYSTEM", "XDG_CONFIG_HOME"} {
		if v, ok := os.LookupEnv(k); ok {
			env = append(env, k+"="+v)
		}
	}
	return env
}

// GitTopLevel returns the top level of the git working tree containing
// dir, or configuration_required when dir is not in one.
func GitTopLevel(ctx context.Context, dir string) (string, error) {
	out, err := inspectGit(ctx, dir, "rev-parse", "--show-toplevel")
	if err != nil {
		return "", core.Errorf(core.CodeConfigurationRequired, "%s is not inside a git working tree", dir).
			WithHint("fluzo works in a git repository; run 'git init' there or pass --workspace")
	}
	return strings.TrimSpace(string(out)), nil
}
