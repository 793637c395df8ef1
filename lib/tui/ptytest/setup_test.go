package ptytest

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// emptyRepo is a fresh git repository without a .fluzo, with private
// home, config and state directories.
func emptyRepo(t *testing.T) (ws string, env []string) {
	t.Helper()
	home := t.TempDir()
	ws = filepath.Join(t.TempDir(), "ws")
	env = []string{
		"PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH"),
		"HOME=" + home, "XDG_CONFIG_HOME=" + filepath.Join(home, ".config"),
		"XDG_STATE_HOME=" + filepath.Join(home, ".state"), "XDG_RUNTIME_DIR=" + filepath.Join(home, ".run"),
		"GIT_CONFIG_NOSYSTEM=1", "TERM=xterm-256color", "COLORTERM=truecolor", "LANG=C.UTF-8",
	}
	for _, d := range []string{ws, filepath.Join(home, ".config"), filepath.Join(home, ".state"), filepath.Join(home, ".run")} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	git := exec.Command("git", "init", "-q", "-b", "main")
	git.Dir, git.Env = ws, env
	if out, err := git.CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	return ws, env
}

func admit(t *testing.T, env []string, args ...string) string {
	t.Helper()
	cmd := exec.Command(filepath.Join(bin, "fluzo-admit"), args...)
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("fluzo-admit %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// waitRequests waits until the simulator has answered n requests.
func waitRequests(t *testing.T, s *simulator, n int64) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for s.requests.Load() < n && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if got := s.requests.Load(); got != n {
		t.Fatalf("the simulator answered %d requests, want %d", got, n)
	}
}

const setupSentinel = "sk-live-PTY-SENTINEL-91c4"

// The real fluzo-tui in an empty repository: the setup flow against
// fluzo-sim writes a .fluzo that fluzo-admit accepts, adds the exclusion
// and records consent, and the session then opens on it (serve accepts
// the file and the consent); the endpoint is contacted once, when asked,
// and the key behind the named variable never reaches the screen or the
// file.
func TestSetupFlowWritesAValidConfiguration(t *testing.T) {
	s := startSim(t, `{"version":1,"models":["sim"],"steps":[]}`)
	ws, env := emptyRepo(t)
	env = append(env, "SETUP_API_KEY="+setupSentinel)
	tm := startTerm(t, 100, 30, env, ws, filepath.Join(bin, "fluzo-tui"), "--workspace", ws)
	_, at := tm.waitFor("Welcome to Fluzo", 0, 30*time.Second)
	tm.write("\r")
	_, at = tm.waitFor("Model endpoint", at, 10*time.Second)
	tm.write("\t\x15" + s.baseURL + "\t\x15sim\t\x1b[C\tSETUP_API_KEY")
	_, at = tm.waitFor("SETUP_API_KEY", at, 10*time.Second)
	time.Sleep(200 * time.Millisecond) // let fluzo-sim's log line arrive, if any
	if n := s.requests.Load(); n != 0 {
		t.Fatalf("the endpoint got %d requests before discovery was asked for", n)
	}
	tm.write("\x04") // Ctrl+D: list the models
	_, at = tm.waitFor("1 model listed", at, 20*time.Second)
	waitRequests(t, s, 1)
	tm.write("\x13") // Ctrl+S: the summary
	_, at = tm.waitFor("Write this .fluzo?", at, 10*time.Second)
	tm.write("\r") // Enter never writes
	time.Sleep(100 * time.Millisecond)
	if _, err := os.Lstat(filepath.Join(ws, ".fluzo")); err == nil {
		t.Fatal("Enter on the summary wrote the file")
	}
	tm.write("y")
	_, at = tm.waitFor("Add /.fluzodrive/ to .git/info/exclude?", at, 10*time.Second)
	tm.write("y")
	_, at = tm.waitFor("Record consent", at, 10*time.Second)
	tm.write("y")
	_, at = tm.waitFor("Setup complete", at, 10*time.Second)
	tm.write("\r") // open the session on the new file: serve accepts it
	_, at = tm.waitFor("Ask anything", at, 30*time.Second)
	tm.waitFor("connected", at, 30*time.Second)
	tm.write("\x03")
	tm.waitExit(10 * time.Second)
	if tm.waitErr != nil {
		t.Fatalf("fluzo-tui: %v (stderr %s)", tm.waitErr, tm.stderr.String())
	}
	checkRestored(t, tm.bytes())
	waitRequests(t, s, 1)

	if out := admit(t, env, "-C", ws, "config", "validate"); !strings.Contains(out, "valid (schema_version 1)") {
		t.Fatalf("validate: %s", out)
	}
	data, _ := os.ReadFile(filepath.Join(ws, ".fluzo"))
	for _, want := range []string{`base_url = "` + s.baseURL + `"`, `model = "sim"`, `auth = "env"`, `api_key_env = "SETUP_API_KEY"`} {
		if !strings.Contains(string(data), want) {
			t.Errorf(".fluzo lacks %s", want)
		}
	}
	exclude, _ := os.ReadFile(filepath.Join(ws, ".git", "info", "exclude"))
	if !strings.Contains(string(exclude), "/.fluzodrive/") {
		t.Errorf("exclude: %q", exclude)
	}
	if out := admit(t, env, "-C", ws, "consent", "show"); !strings.Contains(out, "consent:      recorded") {
		t.Errorf("consent show: %s", out)
	}
	if bytes.Contains(tm.bytes(), []byte("PTY-SENTINEL")) || bytes.Contains(data, []byte("PTY-SENTINEL")) || strings.Contains(tm.stderr.String(), "PTY-SENTINEL") {
		t.Error("the API key reached the terminal or the file")
	}
}

// A malformed .fluzo is diagnosed by file:line and key, and left as it
// was, byte for byte; the exit status is invalid_configuration's.
func TestMalformedConfigurationIsDiagnosedAndPreserved(t *testing.T) {
	ws, env := emptyRepo(t)
	data := []byte("schema_version = 1\n# mine\n[harness]\nmax_turns = 0\n")
	path := filepath.Join(ws, ".fluzo")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	tm := startTerm(t, 100, 30, env, ws, filepath.Join(bin, "fluzo-tui"), "--workspace", ws)
	tm.waitFor("The .fluzo file has problems", 0, 30*time.Second)
	tm.waitFor("ws/.fluzo:4:", 0, 5*time.Second)
	tm.waitFor("harness.max_turns: 0 is out of range", 0, 5*time.Second)
	tm.write("\x13\ry")
	time.Sleep(100 * time.Millisecond)
	tm.write("q")
	tm.waitExit(10 * time.Second)
	var ee *exec.ExitError
	if !errors.As(tm.waitErr, &ee) || ee.ExitCode() != 3 {
		t.Fatalf("exit %v, want status 3 (invalid_configuration)", tm.waitErr)
	}
	if after, _ := os.ReadFile(path); !bytes.Equal(after, data) {
		t.Fatalf("the malformed file changed:\n%s", after)
	}
}
