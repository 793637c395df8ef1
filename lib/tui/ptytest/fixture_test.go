package ptytest

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// bin is the directory holding the freshly built toolkit binaries.
var bin string

func TestMain(m *testing.M) {
	code, err := runWithBinaries(m)
	if err != nil {
		fmt.Fprintln(os.Stderr, "ptytest:", err)
		os.Exit(1)
	}
	os.Exit(code)
}

func runWithBinaries(m *testing.M) (int, error) {
	dir, err := os.MkdirTemp("", "fluzo-ptytest-bin-")
	if err != nil {
		return 0, err
	}
	defer os.RemoveAll(dir)
	root := repoRoot()
	build := exec.Command("go", "build", "-o", dir+"/", "./cmd/fluzo-tui", "./cmd/fluzo-agent", "./cmd/fluzo-tool", "./cmd/fluzo-sim", "./cmd/fluzo-admit", "./cmd/fluzo-store")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		return 0, fmt.Errorf("go build: %v\n%s", err, out)
	}
	bin = dir
	return m.Run(), nil
}

func repoRoot() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "..")
}

// simulator is a running fluzo-sim serve process.
type simulator struct {
	baseURL  string
	cmd      *exec.Cmd
	requests atomic.Int64 // model requests answered so far
}

// startSim serves scenario (a JSON document) until the test ends.
func startSim(t testing.TB, scenario string) *simulator {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, "scenario.json")
	if err := os.WriteFile(path, []byte(scenario), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(filepath.Join(bin, "fluzo-sim"), "serve", "--scenario", path)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("cannot start fluzo-sim: %v", err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	lines := bufio.NewScanner(out)
	if !lines.Scan() {
		t.Fatalf("fluzo-sim printed nothing")
	}
	var first struct {
		BaseURL string `json:"base_url"`
	}
	if err := json.Unmarshal(lines.Bytes(), &first); err != nil || first.BaseURL == "" {
		t.Fatalf("fluzo-sim's first line has no base_url: %q", lines.Text())
	}
	sim := &simulator{baseURL: first.BaseURL, cmd: cmd}
	go func() {
		for lines.Scan() {
			if strings.Contains(lines.Text(), `"type":"request"`) {
				sim.requests.Add(1)
			}
		}
	}()
	return sim
}

// workspace copies the bundled Rust fixture into a fresh git repository
// whose .fluzo points the agent at the simulator; extra is appended to
// the [harness] table.
func workspace(t testing.TB, s *simulator, extra string) (ws string, env []string) {
	t.Helper()
	home := t.TempDir()
	ws = filepath.Join(t.TempDir(), "ws")
	if err := os.CopyFS(ws, os.DirFS(filepath.Join(repoRoot(), "share", "fixtures", "rust-wordcount"))); err != nil {
		t.Fatal(err)
	}
	env = []string{
		"PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH"),
		"HOME=" + home, "XDG_CONFIG_HOME=" + filepath.Join(home, ".config"),
		"XDG_STATE_HOME=" + filepath.Join(home, ".state"), "XDG_RUNTIME_DIR=" + filepath.Join(home, ".run"),
		"GIT_CONFIG_NOSYSTEM=1", "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t.invalid",
		"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t.invalid",
		"TERM=xterm-256color", "COLORTERM=truecolor", "LANG=C.UTF-8",
	}
	for _, d := range []string{".config", ".state", ".run"} {
		if err := os.MkdirAll(filepath.Join(home, d), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	config := fmt.Sprintf("schema_version = 1\n[agent]\nmodel = \"coder\"\n[models.coder]\nprovider = \"openai_compatible\"\nbase_url = %q\nmodel = \"sim\"\nauth = \"none\"\n[harness]\nverify_command = \"true\"\n%s", s.baseURL, extra)
	if err := os.WriteFile(filepath.Join(ws, ".fluzo"), []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, g := range [][]string{{"init", "-q", "-b", "main"}, {"add", "-A"}, {"commit", "-q", "-m", "fixture"}} {
		cmd := exec.Command("git", g...)
		cmd.Dir, cmd.Env = ws, env
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", g, err, out)
		}
	}
	if err := os.WriteFile(filepath.Join(ws, ".git", "info", "exclude"), []byte("/.fluzodrive/\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// The user consented to this configuration (the serve the UI starts
	// refuses an unconsented one).
	grant := exec.Command(filepath.Join(bin, "fluzo-admit"), "-C", ws, "consent", "grant", "--yes")
	grant.Env = env
	if out, err := grant.CombinedOutput(); err != nil {
		t.Fatalf("consent grant: %v\n%s", err, out)
	}
	return ws, env
}

// startTUI runs fluzo-tui on ws in a cols x rows pty and waits for its
// first usable frame (the composer's placeholder).
func startTUI(t testing.TB, ws string, env []string, cols, rows int, args ...string) *term {
	t.Helper()
	argv := append([]string{filepath.Join(bin, "fluzo-tui"), "--workspace", ws}, args...)
	tm := startTerm(t, cols, rows, env, ws, argv...)
	tm.waitFor("Ask anything", 0, 30*time.Second)
	return tm
}

// childrenOf lists the pids whose parent is pid (from /proc).
func childrenOf(pid int) []int {
	var kids []int
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		var p int
		if _, err := fmt.Sscanf(e.Name(), "%d", &p); err != nil {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		s := string(stat)
		fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		if len(fields) > 1 && fields[1] == fmt.Sprint(pid) {
			kids = append(kids, p)
		}
	}
	return kids
}

func alive(pid int) bool {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	s := string(stat)
	fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	return len(fields) > 0 && fields[0] != "Z"
}

var decMode = regexp.MustCompile(`\x1b\[\?([0-9;]+)([hl])`)
