package gitx

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// countingGit puts a git on PATH that logs each configuration listing and
// runs the real one; it returns how many listings have run so far.
func countingGit(t *testing.T) func() int {
	real, err := exec.LookPath("git")
	if err != nil {
		t.Fatal(err)
	}
	bin := t.TempDir()
	log := filepath.Join(bin, "listings")
	script := "#!/bin/sh\ncase \" $* \" in *' config --includes --show-origin '*) echo x >>" + log + " ;; esac\nexec " + real + " \"$@\"\n"
	if err := os.WriteFile(filepath.Join(bin, "git"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	return func() int {
		b, _ := os.ReadFile(log)
		return strings.Count(string(b), "x")
	}
}

// settledRepo is a fresh repository and HOME whose files are older than a
// shortened racy window, and the baseline environment naming that HOME.
func settledRepo(t *testing.T) (repo, home string, baseline []string) {
	old := racyWindow
	racyWindow = 50 * time.Millisecond
	t.Cleanup(func() { racyWindow = old })
	repo, home = t.TempDir(), t.TempDir()
	if out, err := exec.Command("git", "init", "-q", repo).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	time.Sleep(2 * racyWindow)
	return repo, home, []string{"HOME=" + home}
}

func prepared(t *testing.T, dir string, baseline []string) string {
	t.Helper()
	c, err := Prepare(t.Context(), dir, baseline, "status")
	if err != nil {
		t.Fatal(err)
	}
	return strings.Join(c.Argv, " ")
}

func appendFile(t *testing.T, path, text string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(text); err != nil {
		t.Fatal(err)
	}
}

func TestConfigListingIsReusedUntilAFileChanges(t *testing.T) {
	listings := countingGit(t)
	repo, home, baseline := settledRepo(t)
	for range 3 {
		prepared(t, repo, baseline)
	}
	if n := listings(); n != 1 {
		t.Fatalf("%d listings for three commands on an unchanged configuration, want 1", n)
	}
	config := filepath.Join(repo, ".git", "config")
	appendFile(t, config, "[filter \"aaaa\"]\n\tclean = touch pwned\n")
	if argv := prepared(t, repo, baseline); !strings.Contains(argv, "-c filter.aaaa.clean= ") {
		t.Fatalf("a filter added to .git/config was not neutralised: %s", argv)
	}
	// Same size, same inode: only the file's times tell the change.
	b, _ := os.ReadFile(config)
	if err := os.WriteFile(config, []byte(strings.Replace(string(b), `"aaaa"`, `"bbbb"`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if argv := prepared(t, repo, baseline); !strings.Contains(argv, "-c filter.bbbb.clean= ") {
		t.Fatalf("a filter renamed in place was not neutralised: %s", argv)
	}
	// A global file that did not exist when the listing was kept.
	appendFile(t, filepath.Join(home, ".gitconfig"), "[filter \"glob\"]\n\tprocess = touch pwned\n")
	if argv := prepared(t, repo, baseline); !strings.Contains(argv, "-c filter.glob.process= ") {
		t.Fatalf("a filter in a new ~/.gitconfig was not neutralised: %s", argv)
	}
	if n := listings(); n != 4 {
		t.Fatalf("%d listings, want 4 (one per change)", n)
	}
}

// An include's target may not exist yet, and nothing stamps it: such a
// configuration is listed before every command.
func TestConfigWithAnIncludeIsListedEveryTime(t *testing.T) {
	listings := countingGit(t)
	repo, _, baseline := settledRepo(t)
	extra := filepath.Join(t.TempDir(), "extra")
	appendFile(t, filepath.Join(repo, ".git", "config"), "[include]\n\tpath = "+extra+"\n")
	time.Sleep(2 * racyWindow)
	prepared(t, repo, baseline)
	appendFile(t, extra, "[filter \"inc\"]\n\tclean = touch pwned\n")
	if argv := prepared(t, repo, baseline); !strings.Contains(argv, "-c filter.inc.clean= ") {
		t.Fatalf("a filter in a newly created included file was not neutralised: %s", argv)
	}
	if n := listings(); n != 2 {
		t.Fatalf("%d listings, want 2", n)
	}
}

// git names the repository's file relative to the top level; from a
// subdirectory that path is not the file, so nothing is kept.
func TestConfigListedFromASubdirectoryIsNotKept(t *testing.T) {
	countingGit(t)
	repo, _, baseline := settledRepo(t)
	sub := filepath.Join(repo, "src")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	prepared(t, sub, baseline)
	appendFile(t, filepath.Join(repo, ".git", "config"), "[filter \"sub\"]\n\tclean = touch pwned\n")
	if argv := prepared(t, sub, baseline); !strings.Contains(argv, "-c filter.sub.clean= ") {
		t.Fatalf("a filter added after a listing from a subdirectory was not neutralised: %s", argv)
	}
}

// A file that changed within the racy window could change again without
// its times moving: its listing is not kept.
func TestAFreshlyWrittenConfigIsNotReused(t *testing.T) {
	listings := countingGit(t)
	repo := t.TempDir()
	if out, err := exec.Command("git", "init", "-q", repo).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	baseline := []string{"HOME=" + t.TempDir()}
	prepared(t, repo, baseline)
	prepared(t, repo, baseline)
	if n := listings(); n != 2 {
		t.Fatalf("%d listings of a configuration written just now, want 2", n)
	}
}

// Commands started together (the backend's cleanup and its hello) list
// the configuration once between them.
func TestConcurrentCommandsListOnce(t *testing.T) {
	listings := countingGit(t)
	repo, _, baseline := settledRepo(t)
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := Prepare(t.Context(), repo, baseline, "status"); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if n := listings(); n != 1 {
		t.Fatalf("%d listings for eight commands started together, want 1", n)
	}
}

// TestRevParseRunsBesideTheListing: a workspace's first command,
// rev-parse, starts no driver, so it does not wait for the configuration
// listing. The git on PATH holds the listing until a rev-parse has
// started: run one after the other, the listing gives up and fails.
func TestRevParseRunsBesideTheListing(t *testing.T) {
	real, err := exec.LookPath("git")
	if err != nil {
		t.Fatal(err)
	}
	bin := t.TempDir()
	started := filepath.Join(bin, "rev-parse-started")
	script := "#!/bin/sh\ncase \" $* \" in\n" +
		"*' rev-parse '*) : >" + started + " ;;\n" +
		"*' config --includes --show-origin '*) i=0; while [ ! -e " + started + " ]; do i=$((i+1)); [ $i -gt 200 ] && { echo 'no rev-parse beside the listing' >&2; exit 3; }; sleep 0.05; done ;;\n" +
		"esac\nexec " + real + " \"$@\"\n"
	if err := os.WriteFile(filepath.Join(bin, "git"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	repo, _, baseline := settledRepo(t)
	top, err := TopLevel(t.Context(), repo, baseline)
	if err != nil {
		t.Fatal(err)
	}
	if want, _ := filepath.EvalSymlinks(repo); top != want {
		t.Fatalf("top level %q, want %q", top, want)
	}
	// The listing it ran beside is kept for the commands that follow.
	if _, ok := cachedConfigKeys(repo, Env(baseline)); !ok {
		t.Fatal("the listing run beside rev-parse was not kept")
	}
}

// TestRevParseBesideAnUnusableConfigurationIsRefused: the listing's
// refusal still wins over rev-parse's answer.
func TestRevParseBesideAnUnusableConfigurationIsRefused(t *testing.T) {
	repo, _, baseline := settledRepo(t)
	if out, err := exec.Command("git", "-C", repo, "config", "filter.a=b.clean", "touch pwned").CombinedOutput(); err != nil {
		t.Fatalf("git config: %v\n%s", err, out)
	}
	_, err := TopLevel(t.Context(), repo, baseline)
	if err == nil || !strings.Contains(err.Error(), "cannot disable") {
		t.Fatalf("err = %v, want the listing's refusal naming the helper", err)
	}
}
