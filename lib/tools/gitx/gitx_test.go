package gitx

import (
	"strings"
	"testing"
)

func TestEnvDropsRedirectionsAndDisablesPrompts(t *testing.T) {
	env := strings.Join(Env([]string{"PATH=/bin", "GIT_DIR=/elsewhere", "GIT_EXTERNAL_DIFF=/x", "GIT_SSH_COMMAND=evil", "PAGER=less", "EDITOR=vim"}), "\n") + "\n"
	for _, gone := range []string{"GIT_DIR=", "GIT_EXTERNAL_DIFF=", "GIT_SSH_COMMAND=evil", "PAGER=less", "EDITOR=vim"} {
		if strings.Contains(env, gone) {
			t.Errorf("%s survived:\n%s", gone, env)
		}
	}
	for _, want := range []string{"PATH=/bin", "GIT_TERMINAL_PROMPT=0", "GIT_OPTIONAL_LOCKS=0", "GIT_CONFIG_NOSYSTEM=1", "GIT_PAGER=cat"} {
		if !strings.Contains(env, want+"\n") {
			t.Errorf("%s missing:\n%s", want, env)
		}
	}
}

func TestArgsPutHardeningBeforeTheSubcommand(t *testing.T) {
	argv := Args(t.Context(), t.TempDir(), Env(nil), "status")
	joined := strings.Join(argv, " ")
	if !strings.HasPrefix(joined, "git --no-pager -C ") || !strings.HasSuffix(joined, " status") {
		t.Fatalf("argv = %s", joined)
	}
	for _, kv := range []string{"core.fsmonitor=false", "core.hooksPath=/dev/null", "diff.external=", "credential.helper="} {
		if !strings.Contains(joined, "-c "+kv+" ") {
			t.Errorf("missing -c %s in %s", kv, joined)
		}
	}
}
