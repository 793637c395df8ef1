// Package gitx is the one place that runs git. Every invocation runs no
// repository-configured helper: no fsmonitor, pager, external diff,
// textconv, hooks, filter drivers (clean, smudge, process), credential
// helpers or prompts, editors, signing programs, custom ssh commands or
// transports. Inspection of an untrusted repository must never launch a
// program the repository chose (DESIGN §7 invariant 6).
package gitx

import (
	"bytes"
	"context"
	"errors"
	"os/exec"
	"strings"
	"syscall"
	"time"

	"github.com/josecorral/fluzo/lib/core"
)

// CodeUnsafeConfig reports a repository configuration that names a helper
// git's -c option cannot address (a driver name containing "="), so it
// could not be neutralised; git is not run.
const CodeUnsafeConfig core.Code = "unsafe_git_config"

// hardening is passed as -c options before every subcommand; command-line
// configuration wins over every configuration file, included ones too.
var hardening = []string{
	"core.fsmonitor=false",
	"core.pager=cat",
	"core.hooksPath=/dev/null",
	"core.askPass=",
	"core.sshCommand=ssh -o BatchMode=yes",
	"core.editor=true",
	"core.untrackedCache=false",
	"diff.external=",
	// An empty helper resets the helper list; URL-specific helpers are
	// reset by name (see overrides).
	"credential.helper=",
	"log.showSignature=false",
	"commit.gpgSign=false",
	"tag.gpgSign=false",
	"push.gpgSign=false",
	"gpg.program=false",
	"gpg.openpgp.program=false",
	"gpg.x509.program=false",
	"gpg.ssh.program=false",
	"gpg.ssh.defaultKeyCommand=",
	"sequence.editor=true",
	"protocol.ext.allow=never",
	"uploadpack.packObjectsHook=",
	"status.relativePaths=false",
	"status.submoduleSummary=false",
	"submodule.recurse=false",
	"diff.ignoreSubmodules=dirty",
	"gc.auto=0",
	"maintenance.auto=false",
	"color.ui=never",
}

// subcommandFlags are added right after the subcommand. Entering a
// submodule's work tree would run git under the submodule's own
// configuration, whose drivers were never listed, so status and diff stay
// out of them; diff-like commands never run external diff or textconv.
var subcommandFlags = map[string][]string{
	"status": {"--ignore-submodules=dirty"},
	"diff":   {"--no-ext-diff", "--no-textconv", "--ignore-submodules=dirty"},
	"show":   {"--no-ext-diff", "--no-textconv"},
	"log":    {"--no-ext-diff", "--no-textconv"},
	// The configuration's remote.<r>.receivepack/uploadpack would name
	// the program to run; git keeps the first value it reads, so only the
	// command line can replace it.
	"push":      {"--receive-pack=git-receive-pack"},
	"fetch":     {"--upload-pack=git-upload-pack"},
	"pull":      {"--upload-pack=git-upload-pack"},
	"ls-remote": {"--upload-pack=git-upload-pack"},
}

// keptGitVars are inherited GIT_* variables that only label commits or
// choose which of the user's own configuration files git reads (the
// helpers those files name are neutralised like the repository's); none
// points git at another repository or runs a program.
var keptGitVars = map[string]bool{
	"GIT_AUTHOR_NAME": true, "GIT_AUTHOR_EMAIL": true, "GIT_AUTHOR_DATE": true,
	"GIT_COMMITTER_NAME": true, "GIT_COMMITTER_EMAIL": true, "GIT_COMMITTER_DATE": true,
	"GIT_CONFIG_GLOBAL": true, "GIT_CONFIG_SYSTEM": true, "GIT_CONFIG_NOSYSTEM": true,
	"GIT_CEILING_DIRECTORIES": true,
}

// Env is the environment of every git child: baseline without the
// variables that could redirect git or run a program (GIT_DIR,
// GIT_WORK_TREE, GIT_CONFIG_PARAMETERS, GIT_EXTERNAL_DIFF, GIT_SSH… —
// every GIT_* name but keptGitVars — pagers, editors, askpass, loader
// preloads), plus variables that turn off prompts, optional locks, pagers
// and external diff.
func Env(baseline []string) []string {
	var out []string
	for _, kv := range baseline {
		k, _, _ := strings.Cut(kv, "=")
		if dropped(k) {
			continue
		}
		out = append(out, kv)
	}
	return append(out,
		"GIT_TERMINAL_PROMPT=0", "GIT_OPTIONAL_LOCKS=0",
		"GIT_PAGER=cat", "PAGER=cat", "GIT_EDITOR=true", "GIT_ASKPASS=", "SSH_ASKPASS=",
		"GIT_SSH_COMMAND=ssh -o BatchMode=yes", "GIT_NO_REPLACE_OBJECTS=1", "LC_ALL=C",
		// Set but empty, it wins over core.gitProxy (of which git keeps
		// the first value, so -c could not replace it) and means none.
		"GIT_PROXY_COMMAND=")
}

func dropped(k string) bool {
	switch k {
	case "PAGER", "EDITOR", "VISUAL", "SSH_ASKPASS", "LC_ALL", "BASH_ENV", "ENV":
		return true
	}
	if strings.HasPrefix(k, "GIT_") {
		return !keptGitVars[k]
	}
	return strings.HasPrefix(k, "LD_")
}

// Command is one prepared git invocation: argv[0] is "git".
type Command struct {
	Argv []string
	Env  []string
}

// Prepare builds the hardened "git SUB ARGS…" for dir with Env(baseline):
// the fixed hardening plus an override for every filter driver, diff
// driver, URL-specific credential helper and remote transport program the
// effective configuration (includes and includeIf followed) names. Their
// names vary, so they are read from the configuration first — reading
// configuration runs nothing. A configuration that cannot be listed, or
// names a helper -c cannot override, is an error: git is not run.
func Prepare(ctx context.Context, dir string, baseline []string, sub ...string) (Command, error) {
	env := Env(baseline)
	overrides, err := driverOverrides(ctx, dir, env)
	if err != nil {
		return Command{}, err
	}
	argv := hardenedArgv(dir)
	for _, kv := range overrides {
		argv = append(argv, "-c", kv)
	}
	if len(sub) > 0 {
		argv = append(argv, sub[0])
		argv = append(argv, subcommandFlags[sub[0]]...)
		argv = append(argv, sub[1:]...)
	}
	return Command{Argv: argv, Env: env}, nil
}

// hardenedArgv is "git" in dir with the fixed hardening every command
// gets, before any override or subcommand.
func hardenedArgv(dir string) []string {
	argv := []string{"git", "--no-pager", "--no-optional-locks", "-C", dir}
	for _, kv := range hardening {
		argv = append(argv, "-c", kv)
	}
	return argv
}

// Result is a finished git command. A non-zero ExitCode is git's answer
// (e.g. check-ignore's "not ignored"), not a failure to run it.
type Result struct {
	Stdout   []byte
	Stderr   string
	ExitCode int
}

// timeout bounds the short inspection commands Run executes; they are
// local and small.
const timeout = 30 * time.Second

// Run runs a short hardened git command in dir, in its own process group
// with stdin closed. The error is non-nil only when git could not be
// prepared, started or finished in time.
func Run(ctx context.Context, dir string, baseline []string, sub ...string) (Result, error) {
	if len(sub) > 0 && runsNoDriver[sub[0]] {
		return runBesideListing(ctx, dir, baseline, sub...)
	}
	c, err := Prepare(ctx, dir, baseline, sub...)
	if err != nil {
		return Result{}, err
	}
	return run(ctx, c)
}

// runsNoDriver names the subcommands that never start a filter, diff or
// merge driver, a credential helper or a transport program — the
// programs the configuration listing exists to neutralise. rev-parse
// reads refs and paths; nothing it does reaches a driver.
var runsNoDriver = map[string]bool{"rev-parse": true}

// runBesideListing runs such a subcommand while the configuration is
// listed, instead of after it: a workspace's first git command (the
// owner's top level, fluzo-tool's hello) no longer waits one git process
// for a listing it does not need. The answer is git's only when the
// listing succeeds too, so a configuration that cannot be listed, or
// names a helper Fluzo cannot disable, is the same error as before; and
// the listing is kept for the commands that follow.
func runBesideListing(ctx context.Context, dir string, baseline []string, sub ...string) (Result, error) {
	env := Env(baseline)
	listed := make(chan error, 1)
	go func() {
		_, err := driverOverrides(ctx, dir, env)
		listed <- err
	}()
	res, err := run(ctx, Command{Argv: append(hardenedArgv(dir), sub...), Env: env})
	if lerr := <-listed; lerr != nil {
		return Result{}, lerr
	}
	return res, err
}

func run(ctx context.Context, c Command) (Result, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, c.Argv[0], c.Argv[1:]...)
	cmd.Env = c.Env
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	res := Result{Stdout: out.Bytes(), Stderr: strings.TrimSpace(errb.String())}
	var ee *exec.ExitError
	switch {
	case ctx.Err() != nil:
		return res, core.Wrap(ctx.Err(), core.CodeFailed, "git "+subName(c.Argv)+" did not finish").
			WithHint("check the repository; git inspection is bounded to %s", timeout)
	case errors.As(err, &ee):
		res.ExitCode = ee.ExitCode()
	case err != nil:
		return res, core.Wrap(err, core.CodeConfigurationRequired, "git could not be run").
			WithHint("install git; Fluzo relies on it to inspect the workspace")
	}
	return res, nil
}

// Output runs a git command that must succeed and returns its stdout; a
// non-zero exit is an error carrying git's message.
func Output(ctx context.Context, dir string, baseline []string, sub ...string) ([]byte, error) {
	res, err := Run(ctx, dir, baseline, sub...)
	if err != nil {
		return nil, err
	}
	if res.ExitCode != 0 {
		return nil, core.Errorf(core.CodeFailed, "git %s failed in %s: %s", strings.Join(sub, " "), dir, res.Stderr).
			WithHint("check that %s is a readable git working tree", dir)
	}
	return res.Stdout, nil
}

// TopLevel returns the top level of the git working tree containing dir,
// or configuration_required when dir is not in one.
func TopLevel(ctx context.Context, dir string, baseline []string) (string, error) {
	out, err := Output(ctx, dir, baseline, "rev-parse", "--show-toplevel")
	top := strings.TrimSpace(string(out))
	if err != nil || top == "" {
		if core.CodeOf(err) == CodeUnsafeConfig {
			return "", err
		}
		return "", core.Errorf(core.CodeConfigurationRequired, "%s is not inside a git working tree", dir).
			WithHint("fluzo works in a git repository; run 'git init' there or pass --workspace")
	}
	return top, nil
}

func subName(argv []string) string {
	for i := 1; i < len(argv); i++ {
		switch {
		case argv[i] == "-c" || argv[i] == "-C":
			i++
		case !strings.HasPrefix(argv[i], "-"):
			return argv[i]
		}
	}
	return ""
}
