package gitx

import (
	"strings"
	"testing"

	"github.com/josecorral/fluzo/lib/core"
)

func TestEnvDropsRedirectionsAndDisablesPrompts(t *testing.T) {
	env := strings.Join(Env([]string{"PATH=/bin", "GIT_DIR=/elsewhere", "GIT_EXTERNAL_DIFF=/x", "GIT_SSH_COMMAND=evil", "GIT_CONFIG_PARAMETERS='core.pager=evil'", "GIT_CONFIG_COUNT=1", "PAGER=less", "EDITOR=vim", "LD_PRELOAD=/x.so", "GIT_AUTHOR_NAME=A", "GIT_CONFIG_GLOBAL=/g"}), "\n") + "\n"
	for _, gone := range []string{"GIT_DIR=", "GIT_EXTERNAL_DIFF=", "GIT_SSH_COMMAND=evil", "GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT", "PAGER=less", "EDITOR=vim", "LD_PRELOAD"} {
		if strings.Contains(env, gone) {
			t.Errorf("%s survived:\n%s", gone, env)
		}
	}
	for _, want := range []string{"PATH=/bin", "GIT_AUTHOR_NAME=A", "GIT_CONFIG_GLOBAL=/g", "GIT_TERMINAL_PROMPT=0", "GIT_OPTIONAL_LOCKS=0", "GIT_PAGER=cat"} {
		if !strings.Contains(env, want+"\n") {
			t.Errorf("%s missing:\n%s", want, env)
		}
	}
}

func TestPreparePutsHardeningBeforeTheSubcommand(t *testing.T) {
	c, err := Prepare(t.Context(), t.TempDir(), nil, "diff", "--cached")
	if err != nil {
		t.Fatal(err)
	}
	joined := strings.Join(c.Argv, " ")
	if !strings.HasPrefix(joined, "git --no-pager --no-optional-locks -C ") || !strings.HasSuffix(joined, " diff --no-ext-diff --no-textconv --ignore-submodules=dirty --cached") {
		t.Fatalf("argv = %s", joined)
	}
	for _, kv := range []string{"core.fsmonitor=false", "core.hooksPath=/dev/null", "diff.external=", "credential.helper="} {
		if !strings.Contains(joined, "-c "+kv+" ") {
			t.Errorf("missing -c %s in %s", kv, joined)
		}
	}
}

func TestTopLevelOutsideARepositoryAndInAMissingDirectory(t *testing.T) {
	for _, dir := range []string{t.TempDir(), t.TempDir() + "/missing"} {
		_, err := TopLevel(t.Context(), dir, nil)
		if core.CodeOf(err) != core.CodeConfigurationRequired || !strings.Contains(err.Error(), "not inside a git working tree") {
			t.Errorf("TopLevel(%s) = %v", dir, err)
		}
	}
}
