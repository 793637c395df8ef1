// Package gitx builds git invocations that run no repository-configured
// helper: no fsmonitor, pager, external diff, textconv, hooks, filter
// drivers, credential helpers or prompts, editors, signing programs or
// custom transports. Inspection of an untrusted repository must never
// launch a program the repository chose.
package gitx

import (
	"bytes"
	"context"
	"os/exec"
	"strings"
	"syscall"
	"time"
)

// hardening is passed as -c options before every subcommand; command-line
// configuration wins over every configuration file.
var hardening = []string{
	"core.fsmonitor=false",
	"core.pager=cat",
	"core.hooksPath=/dev/null",
	"core.askPass=",
	"core.sshCommand=ssh",
	"core.editor=true",
	"core.untrackedCache=false",
	"diff.external=",
	"credential.helper=",
	"log.showSignature=false",
	"commit.gpgSign=false",
	"tag.gpgSign=false",
	"push.gpgSign=false",
	"gpg.program=false",
	"sequence.editor=true",
	"protocol.ext.allow=never",
	"uploadpack.packObjectsHook=",
	"status.relativePaths=false",
	"status.submoduleSummary=false",
	"submodule.recurse=false",
	"diff.ignoreSubmodules=dirty",
	"color.ui=never",
}

// Env is the environment of every git child: the caller's baseline plus
// variables that turn off prompts, optional locks, system configuration,
// pagers and external diff; variables that could redirect git are absent.
func Env(baseline []string) []string {
	var out []string
	for _, kv := range baseline {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "GIT_") || k == "PAGER" || k == "EDITOR" || k == "VISUAL" || k == "SSH_ASKPASS" {
			continue
		}
		out = append(out, kv)
	}
	return append(out,
		"GIT_TERMINAL_PROMPT=0", "GIT_OPTIONAL_LOCKS=0", "GIT_CONFIG_NOSYSTEM=1",
		"GIT_PAGER=cat", "PAGER=cat", "GIT_EDITOR=true", "GIT_ASKPASS=", "SSH_ASKPASS=",
		"GIT_SSH_COMMAND=ssh -o BatchMode=yes", "GIT_NO_REPLACE_OBJECTS=1", "LC_ALL=C")
}

// Args returns the full argv for "git SUB ARGS…" in dir: the hardening
// options plus overrides for every filter driver and remote helper program
// named in the repository's configuration (their names vary, so they are
// read from the configuration first — reading configuration runs nothing).
func Args(ctx context.Context, dir string, env []string, sub ...string) []string {
	argv := []string{"git", "--no-pager", "-C", dir}
	for _, kv := range hardening {
		argv = append(argv, "-c", kv)
	}
	for _, kv := range driverOverrides(ctx, dir, env) {
		argv = append(argv, "-c", kv)
	}
	return append(argv, sub...)
}

// FilterDrivers names the filter drivers (clean/smudge/process programs)
// the repository's configuration defines, e.g. "lfs".
func FilterDrivers(ctx context.Context, dir string, env []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, key := range configKeys(ctx, dir, env) {
		k := strings.ToLower(key)
		if !strings.HasPrefix(k, "filter.") || !(strings.HasSuffix(k, ".clean") || strings.HasSuffix(k, ".process")) {
			continue
		}
		name := key[len("filter."):strings.LastIndexByte(key, '.')]
		if !seen[name] {
			seen[name] = true
			out = append(out, name)
		}
	}
	return out
}

func configKeys(ctx context.Context, dir string, env []string) []string {
	argv := []string{"git", "--no-pager", "-C", dir, "-c", "core.fsmonitor=false", "config", "--name-only", "--list", "-z"}
	out, err := Output(ctx, argv, env)
	if err != nil {
		return nil
	}
	return strings.Split(string(out), "\x00")
}

// driverOverrides neutralises configured filter drivers (clean, smudge,
// process run on status and diff) and per-remote transport programs.
func driverOverrides(ctx context.Context, dir string, env []string) []string {
	var kv []string
	for _, key := range configKeys(ctx, dir, env) {
		k := strings.ToLower(key)
		switch {
		case strings.HasPrefix(k, "filter.") && (strings.HasSuffix(k, ".clean") || strings.HasSuffix(k, ".smudge") || strings.HasSuffix(k, ".process")):
			kv = append(kv, key+"=")
		case strings.HasPrefix(k, "filter.") && strings.HasSuffix(k, ".required"):
			kv = append(kv, key+"=false")
		case strings.HasPrefix(k, "remote.") && strings.HasSuffix(k, ".receivepack"):
			kv = append(kv, key+"=git-receive-pack")
		case strings.HasPrefix(k, "remote.") && strings.HasSuffix(k, ".uploadpack"):
			kv = append(kv, key+"=git-upload-pack")
		case strings.HasPrefix(k, "diff.") && (strings.HasSuffix(k, ".textconv") || strings.HasSuffix(k, ".command")):
			kv = append(kv, key+"=")
		}
	}
	return kv
}

// Output runs a short git command (no captured-output limits needed: its
// output is small and local) in its own process group with stdin closed.
func Output(ctx context.Context, argv []string, env []string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Env = env
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	var out bytes.Buffer
	cmd.Stdout = &out
	err := cmd.Run()
	return out.Bytes(), err
}
