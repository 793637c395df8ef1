package demo

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/tools/proc"
)

// toolchainCheckTimeout bounds cargo --version: a rustup proxy that
// starts downloading a toolchain must not hold the demo up unnoticed.
const toolchainCheckTimeout = 30 * time.Second

// CheckToolchain runs cargo --version in the environment the demo's
// tools will give their children (proc.Build over this process's
// environment) before anything else happens, so that a missing or
// misconfigured Rust installation is reported as such — naming the
// variable and the path at fault — instead of as a failed agent run.
func CheckToolchain(ctx context.Context, parent []string) error {
	env, err := proc.Build(parent, proc.EnvPolicy{}, nil)
	if err != nil {
		return err
	}
	cargo, err := proc.LookPath("cargo", env)
	if err != nil {
		return core.Errorf(core.CodeConfigurationRequired, "the demo needs cargo, and cargo is not on the tools' PATH (PATH=%s)", envValue(env, "PATH")).
			WithHint("install Rust (https://rustup.rs or the distribution's cargo package), or add the directory holding cargo (%s) to PATH", cargoBinHint(env))
	}
	ctx, cancel := context.WithTimeout(ctx, toolchainCheckTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, cargo, "--version")
	cmd.Env, cmd.Dir = env, os.TempDir()
	out, runErr := cmd.CombinedOutput()
	if runErr == nil {
		return nil
	}
	why := firstLine(string(out))
	var ee *exec.ExitError
	switch {
	case ctx.Err() != nil:
		why = fmt.Sprintf("it did not finish within %s", toolchainCheckTimeout)
	case errors.As(runErr, &ee) && why == "":
		why = fmt.Sprintf("it exited %d without output", ee.ExitCode())
	case why == "":
		why = runErr.Error()
	}
	return core.Errorf(core.CodeConfigurationRequired, "the demo needs cargo, and '%s --version' fails in the tools' environment: %s", cargo, why).
		WithHint("%s", rustupHint(env))
}

// rustupHint says where rustup and cargo look, as the tools see it: a
// rustup proxy finds its toolchains through RUSTUP_HOME (else
// HOME/.rustup), so a toolchain installed elsewhere needs those variables.
func rustupHint(env []string) string {
	var where []string
	for _, v := range []struct{ name, dflt, holds string }{{"RUSTUP_HOME", ".rustup", "toolchains"}, {"CARGO_HOME", ".cargo", "bin"}} {
		dir := envValue(env, v.name)
		label := v.name + "=" + dir
		if dir == "" {
			dir = filepath.Join(envValue(env, "HOME"), v.dflt)
			label = v.name + " is unset, so " + dir + " (HOME/" + v.dflt + ") is used"
		}
		where = append(where, label+" ("+dirState(dir, v.holds)+")")
	}
	return strings.Join(where, "; ") + ". Set RUSTUP_HOME and CARGO_HOME to your Rust installation (official Rust images use /usr/local/rustup and /usr/local/cargo) or run 'rustup default stable'"
}

func cargoBinHint(env []string) string {
	if dir := envValue(env, "CARGO_HOME"); dir != "" {
		return filepath.Join(dir, "bin")
	}
	return filepath.Join(envValue(env, "HOME"), ".cargo", "bin") + " for rustup"
}

// dirState describes dir for the hint: missing, or whether its sub
// directory holds (toolchains/ for rustup, bin/ for cargo) has anything.
func dirState(dir, holds string) string {
	if st, err := os.Stat(dir); err != nil {
		return "missing"
	} else if !st.IsDir() {
		return "not a directory"
	}
	entries, err := os.ReadDir(filepath.Join(dir, holds))
	if err != nil || len(entries) == 0 {
		return "no " + holds + " in it"
	}
	return fmt.Sprintf("%s/ has %d entries", holds, len(entries))
}

func envValue(env []string, name string) string {
	v := ""
	for _, kv := range env {
		if s, ok := strings.CutPrefix(kv, name+"="); ok {
			v = s
		}
	}
	return v
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return s
}
