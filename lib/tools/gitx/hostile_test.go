package gitx

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
)

// hostile is a repository whose configuration (directly, through
// include.path and through includeIf) names a helper for every hook git
// offers; each helper leaves its own sentinel file in sentinels (outside
// the repository) and behaves as a pass-through filter.
type hostile struct {
	dir, sentinels string
}

func (h hostile) ran() []string {
	entries, _ := os.ReadDir(h.sentinels)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	sort.Strings(names)
	return names
}

func newHostile(t *testing.T) hostile {
	t.Helper()
	base := t.TempDir()
	h := hostile{dir: filepath.Join(base, "repo"), sentinels: filepath.Join(base, "sentinels")}
	must(t, os.Mkdir(h.sentinels, 0o755))
	helper := filepath.Join(base, "helper.sh")
	must(t, os.WriteFile(helper, []byte("#!/bin/sh\ntouch \""+h.sentinels+"/$1\"\nexec cat\n"), 0o755))
	proxy := filepath.Join(base, "proxy.sh")
	must(t, os.WriteFile(proxy, []byte("#!/bin/sh\ntouch \""+h.sentinels+"/gitproxy\"\n"), 0o755))
	plainGit(t, base, "init", "-q", "-b", "main", h.dir)
	files := map[string]string{
		".gitattributes": "*.txt filter=evclean diff=evtc\n*.md filter=evproc\n*.inc filter=incl diff=incltc\n*.cnd filter=cond\n",
		"a.txt":          "one\n", "b.md": "# b\n", "c.inc": "c\n", "d.cnd": "d\n",
	}
	for name, body := range files {
		must(t, os.WriteFile(filepath.Join(h.dir, name), []byte(body), 0o644))
	}
	plainGit(t, h.dir, "add", "-A")
	plainGit(t, h.dir, "commit", "-q", "-m", "init")
	plainGit(t, base, "init", "-q", "--bare", filepath.Join(base, "near.git"))
	hooks := filepath.Join(base, "hooks")
	must(t, os.Mkdir(hooks, 0o755))
	for _, hook := range []string{"pre-commit", "commit-msg", "post-commit", "post-index-change", "reference-transaction", "pre-auto-gc"} {
		must(t, os.WriteFile(filepath.Join(hooks, hook), []byte("#!/bin/sh\ntouch \""+h.sentinels+"/hookspath-"+hook+"\"\n"), 0o755))
		must(t, os.WriteFile(filepath.Join(h.dir, ".git", "hooks", hook), []byte("#!/bin/sh\ntouch \""+h.sentinels+"/githooks-"+hook+"\"\n"), 0o755))
	}
	included := filepath.Join(base, "included.gitconfig")
	must(t, os.WriteFile(included, []byte(
		"[filter \"incl\"]\n\tclean = "+helper+" incl-clean\n\tsmudge = "+helper+" incl-smudge\n"+
			"[diff \"incltc\"]\n\ttextconv = "+helper+" incl-textconv\n"+
			"[credential \"https://example.invalid/incl\"]\n\thelper = "+helper+" incl-credential-url\n"), 0o644))
	cond := filepath.Join(base, "conditional.gitconfig")
	must(t, os.WriteFile(cond, []byte(
		"[filter \"cond\"]\n\tprocess = "+helper+" cond-process\n"+
			"[core]\n\tfsmonitor = "+helper+" cond-fsmonitor\n"), 0o644))
	config := "[filter \"evclean\"]\n\tclean = " + helper + " clean\n\tsmudge = " + helper + " smudge\n\trequired = true\n" +
		"[filter \"evproc\"]\n\tprocess = " + helper + " process\n" +
		"[diff \"evtc\"]\n\ttextconv = " + helper + " textconv\n\tcommand = " + helper + " diff-command\n" +
		"[core]\n\tfsmonitor = " + helper + " fsmonitor\n\tpager = " + helper + " pager\n" +
		"\thooksPath = " + hooks + "\n\tsshCommand = " + helper + " sshcommand\n\taskPass = " + helper + " askpass\n" +
		"[diff]\n\texternal = " + helper + " diff-external\n" +
		"[credential]\n\thelper = " + helper + " credential\n" +
		"[credential \"https://example.invalid\"]\n\thelper = " + helper + " credential-url\n" +
		"[remote \"origin\"]\n\turl = ssh://git@127.0.0.1:1/x.git\n\tuploadpack = " + helper + " uploadpack\n" +
		"[remote \"near\"]\n\turl = " + base + "/near.git\n\tuploadpack = " + helper + " uploadpack-local\n\treceivepack = " + helper + " receivepack-local\n" +
		"[core]\n\tgitProxy = " + proxy + "\n" +
		"[remote \"daemon\"]\n\turl = git://127.0.0.1:1/x.git\n" +
		"[include]\n\tpath = " + included + "\n" +
		"[includeIf \"gitdir:" + h.dir + "/\"]\n\tpath = " + cond + "\n"
	f, err := os.OpenFile(filepath.Join(h.dir, ".git", "config"), os.O_APPEND|os.O_WRONLY, 0)
	must(t, err)
	_, err = f.WriteString(config)
	must(t, err)
	must(t, f.Close())
	return h
}

// stir makes every tracked file's stat information stale (same content,
// new mtime) so that git must re-read, and so filter, each of them.
func (h hostile) stir(t *testing.T) {
	t.Helper()
	when := time.Now().Add(-time.Duration(len(h.ran())+1) * time.Hour)
	for _, name := range []string{"a.txt", "b.md", "c.inc", "d.cnd"} {
		must(t, os.Chtimes(filepath.Join(h.dir, name), when, when))
	}
}

func plainGit(t *testing.T, dir string, args ...string) {
	t.Helper()
	if out, err := plainGitCmd(dir, args...).CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

// plainGitCmd is ordinary git on the hostile repository. Its transport
// helpers never speak git's protocol, so each command is bounded.
func plainGitCmd(dir string, args ...string) *exec.Cmd {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Cancel = func() error { cancel(); return cmd.Process.Kill() }
	cmd.WaitDelay = time.Second
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t.invalid", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t.invalid", "GIT_CONFIG_NOSYSTEM=1", "GIT_TERMINAL_PROMPT=0")
	return cmd
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestPlainGitRunsTheHostileHelpers keeps the hostile repository honest:
// ordinary git, run on it, does launch the helpers the other tests prove
// gitx never launches.
func TestPlainGitRunsTheHostileHelpers(t *testing.T) {
	h := newHostile(t)
	h.stir(t)
	plainGitCmd(h.dir, "status").Run()
	must(t, os.WriteFile(filepath.Join(h.dir, "a.txt"), []byte("two\n"), 0o644))
	must(t, os.WriteFile(filepath.Join(h.dir, "c.inc"), []byte("two\n"), 0o644))
	plainGitCmd(h.dir, "diff").Run()
	plainGitCmd(h.dir, "diff", "--no-ext-diff").Run()
	cred := plainGitCmd(h.dir, "credential", "fill")
	cred.Stdin = strings.NewReader("url=https://example.invalid/incl/x\n\n")
	cred.Run()
	plainGitCmd(h.dir, "commit", "-qam", "x").Run()
	plainGitCmd(h.dir, "ls-remote", "near").Run()
	plainGitCmd(h.dir, "push", "near", "main").Run()
	plainGitCmd(h.dir, "ls-remote", "daemon").Run()
	got := strings.Join(h.ran(), " ")
	t.Log(got)
	for _, want := range []string{"cond-fsmonitor", "clean", "process", "incl-clean", "cond-process", "diff-command", "textconv", "incl-textconv", "credential", "incl-credential-url", "hookspath-pre-commit", "uploadpack-local", "receivepack-local", "gitproxy"} {
		if !strings.Contains(" "+got+" ", " "+want+" ") {
			t.Errorf("plain git did not run %s (ran: %s)", want, got)
		}
	}
}

// TestNoHelperRuns runs every subcommand Fluzo uses, through gitx, on the
// hostile repository: no sentinel may appear, and the commands still
// work (content is read unfiltered).
func TestNoHelperRuns(t *testing.T) {
	h := newHostile(t)
	env := append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t.invalid", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t.invalid",
		"GIT_EXTERNAL_DIFF="+filepath.Join(h.sentinels, "..", "helper.sh")+" env-external", "GIT_CONFIG_PARAMETERS='core.fsmonitor=/bin/false'")
	ctx := t.Context()
	runs := [][]string{
		{"rev-parse", "--show-toplevel"},
		{"rev-parse", "--verify", "-q", "HEAD"},
		{"status", "--porcelain=v1", "-z", "--untracked-files=all"},
		{"status", "--short", "--branch"},
		{"ls-files", "--cached", "--others", "--exclude-standard", "-z"},
		{"check-ignore", "-q", "--no-index", "--", ".fluzodrive/"},
		{"diff"},
		{"diff", "--cached"},
		{"log", "-p", "-n", "1"},
		{"show", "HEAD"},
		{"add", "--", "a.txt", "b.md", "c.inc", "d.cnd"},
		{"commit", "--no-verify", "-m", "through gitx"},
		{"ls-remote", "origin"},
		{"ls-remote", "near"},
		{"push", "near", "main"},
		{"fetch", "near"},
		{"ls-remote", "daemon"},
	}
	for i, sub := range runs {
		h.stir(t)
		if i == 6 {
			must(t, os.WriteFile(filepath.Join(h.dir, "a.txt"), []byte("two\n"), 0o644))
			must(t, os.WriteFile(filepath.Join(h.dir, "b.md"), []byte("# two\n"), 0o644))
			must(t, os.WriteFile(filepath.Join(h.dir, "c.inc"), []byte("two\n"), 0o644))
			must(t, os.WriteFile(filepath.Join(h.dir, "d.cnd"), []byte("two\n"), 0o644))
		}
		res, err := Run(ctx, h.dir, env, sub...)
		if err != nil {
			t.Fatalf("git %v: %v", sub, err)
		}
		if ran := h.ran(); len(ran) > 0 {
			t.Fatalf("git %v ran repository helpers %v (exit %d: %s)", sub, ran, res.ExitCode, res.Stderr)
		}
		if i < 12 && sub[0] != "check-ignore" && res.ExitCode != 0 {
			t.Errorf("git %v exited %d: %s", sub, res.ExitCode, res.Stderr)
		}
	}
	cred, err := Prepare(ctx, h.dir, env, "credential", "fill")
	must(t, err)
	cmd := exec.Command(cred.Argv[0], cred.Argv[1:]...)
	cmd.Env = cred.Env
	cmd.Stdin = strings.NewReader("url=https://example.invalid/incl/x\n\n")
	cmd.Run()
	if ran := h.ran(); len(ran) > 0 {
		t.Fatalf("git credential fill ran %v", ran)
	}
	log, err := Output(ctx, h.dir, env, "log", "--format=%s", "-n", "1")
	if err != nil || strings.TrimSpace(string(log)) != "through gitx" {
		t.Fatalf("the commit through gitx is missing: %q %v", log, err)
	}
}

// TestAConfigurationThatCannotBeNeutralisedIsRefused: git -c cannot name a
// driver whose name contains "=", so gitx refuses to run git at all.
func TestAConfigurationThatCannotBeNeutralisedIsRefused(t *testing.T) {
	h := newHostile(t)
	plainGit(t, h.dir, "config", "filter.a=b.clean", filepath.Join(h.sentinels, "..", "helper.sh")+" odd-clean")
	_, err := Run(t.Context(), h.dir, os.Environ(), "status")
	if err == nil || !strings.Contains(err.Error(), "cannot disable") {
		t.Fatalf("err = %v, want a refusal naming the helper", err)
	}
}

func TestFilterDriversListsIncludedDrivers(t *testing.T) {
	h := newHostile(t)
	got, err := FilterDrivers(t.Context(), h.dir, os.Environ())
	must(t, err)
	sort.Strings(got)
	if strings.Join(got, ",") != "cond,evclean,evproc,incl" {
		t.Fatalf("FilterDrivers = %v", got)
	}
}

// TestSubmodulesAreNotEntered: a submodule's own configuration (which the
// listing of the superproject's does not cover) defines a filter, and the
// superproject asks git to look inside it (ignore = none). Through gitx,
// status and diff stay out of the submodule; plain git enters it.
func TestSubmodulesAreNotEntered(t *testing.T) {
	base := t.TempDir()
	sentinels := filepath.Join(base, "sentinels")
	must(t, os.Mkdir(sentinels, 0o755))
	helper := filepath.Join(base, "helper.sh")
	must(t, os.WriteFile(helper, []byte("#!/bin/sh\ntouch \""+sentinels+"/$1\"\nexec cat\n"), 0o755))
	lib, super := filepath.Join(base, "lib"), filepath.Join(base, "super")
	plainGit(t, base, "init", "-q", "-b", "main", lib)
	must(t, os.WriteFile(filepath.Join(lib, ".gitattributes"), []byte("* filter=sub\n"), 0o644))
	must(t, os.WriteFile(filepath.Join(lib, "x.txt"), []byte("x\n"), 0o644))
	plainGit(t, lib, "add", "-A")
	plainGit(t, lib, "commit", "-qm", "lib")
	plainGit(t, base, "init", "-q", "-b", "main", super)
	plainGit(t, super, "-c", "protocol.file.allow=always", "submodule", "add", "-q", lib, "lib")
	plainGit(t, super, "commit", "-qm", "super")
	plainGit(t, super, "config", "submodule.lib.ignore", "none")
	plainGit(t, filepath.Join(super, "lib"), "config", "filter.sub.clean", helper+" submodule-clean")
	stir := func() {
		when := time.Now().Add(-time.Duration(time.Now().UnixNano()%1000+1) * time.Minute)
		must(t, os.Chtimes(filepath.Join(super, "lib", "x.txt"), when, when))
	}
	for _, sub := range [][]string{{"status", "--porcelain=v1"}, {"diff"}} {
		stir()
		if _, err := Output(t.Context(), super, os.Environ(), sub...); err != nil {
			t.Fatal(err)
		}
		if ran, _ := os.ReadDir(sentinels); len(ran) > 0 {
			t.Fatalf("git %v entered the submodule and ran its filter", sub)
		}
	}
	stir()
	plainGitCmd(super, "status").Run()
	if _, err := os.Stat(filepath.Join(sentinels, "submodule-clean")); err != nil {
		t.Fatal("plain git status did not run the submodule's filter; the test proves nothing")
	}
}
