package chaos

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/josecorral/fluzo/lib/tools"
)

// The workload: the model execs a shell command that appends to exec.log,
// writes a largish file with one write call and edits a committed file.
// Each file has exactly two legal states, before and after.
const (
	notesBefore = "alpha beta gamma\n"
	notesAfter  = "omega beta gamma\n"
	execLine    = "ran\n"
)

// bigContent is the write call's payload: a few hundred KB, so the atomic
// write takes long enough to be interrupted.
var bigContent = strings.Repeat("0123456789abcdef fluzo chaos payload line\n", 8000)

// scenario returns the simulator script for the workload.
func scenario() ([]byte, error) { return scenarioWith(bigContent) }

// scenarioWith is the workload whose write call writes content.
func scenarioWith(content string) ([]byte, error) {
	call := func(id, name string, args map[string]any) map[string]any {
		// 4 KiB argument pieces: the simulator's default of 8 bytes makes
		// the write call ~40,000 stream chunks, which on a starved CPU
		// (seen at load 28 on 2 cores) took the agent 112 s to read and
		// ran the attempt past the harness's 2-minute deadline.
		return map[string]any{"tool_calls": []any{map[string]any{"id": id, "name": name, "arguments": args}}, "fragment": map[string]any{"size": 4096}}
	}
	steps := []any{
		map[string]any{"id": "exec", "match": map[string]any{"messages": 2},
			"respond": call("c1", "exec", map[string]any{"argv": []string{"sh", "-c", "sleep 0.2; printf 'ran\\n' >>exec.log"}})},
		map[string]any{"id": "write", "match": map[string]any{"tool_result": map[string]any{"tool": "exec"}},
			"respond": call("c2", "write", map[string]any{"path": "big.txt", "content": content, "expect_version": tools.Absent})},
		map[string]any{"id": "edit", "match": map[string]any{"tool_result": map[string]any{"tool": "write"}},
			"respond": call("c3", "edit", map[string]any{"path": "notes.txt", "old_string": "alpha", "new_string": "omega",
				"expect_version": tools.Version([]byte(notesBefore))})},
		map[string]any{"id": "done", "match": map[string]any{"tool_result": map[string]any{"tool": "edit"}},
			"respond": map[string]any{"text": "done"}},
		// A failed verification's feedback is answered "done" again, so
		// the run ends on the verification limit, not on a script gap.
		map[string]any{"id": "feedback", "optional": true, "times": 50, "match": map[string]any{"last_user": "^Verification failed"},
			"respond": map[string]any{"text": "done"}},
	}
	// At the turn limit the agent sends one text-only finalization
	// request; an optional step after each scripted one answers it
	// wherever the limit falls, so the budget variant ends
	// budget_exhausted rather than on an unscripted request.
	var withFinal []any
	for i, st := range steps {
		withFinal = append(withFinal, st, map[string]any{"id": fmt.Sprintf("finalize-%d", i), "optional": true,
			"match": map[string]any{"last_user": "turn limit"}, "respond": map[string]any{"text": "summary: stopped at the turn limit"}})
	}
	steps = withFinal
	return json.Marshal(map[string]any{"version": 1, "name": "chaos", "models": []string{"sim"}, "steps": steps})
}

// fixture makes a fresh git workspace with notes.txt committed and a
// .fluzo pointing the agent at the simulator.
func fixture(dir, simURL string, env []string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte(notesBefore), 0o644); err != nil {
		return err
	}
	for _, g := range [][]string{{"init", "-q", "-b", "main"}, {"add", "-A"}, {"commit", "-q", "-m", "fixture"}} {
		cmd := exec.Command("git", g...)
		cmd.Dir, cmd.Env = dir, env
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("git %v: %v\n%s", g, err, out)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, ".git", "info", "exclude"), []byte("/.fluzodrive/\n/.fluzo\n"), 0o644); err != nil {
		return err
	}
	cfg := fmt.Sprintf("schema_version = 1\n\n[models.coder]\nbase_url = %q\nmodel = \"sim\"\ncontext_window = 1000000\n", simURL)
	return os.WriteFile(filepath.Join(dir, ".fluzo"), []byte(cfg), 0o644)
}

// isolatedEnv gives the children their own HOME and XDG directories and
// the toolkit binaries first on PATH.
func isolatedEnv(root string) ([]string, error) {
	home := filepath.Join(root, "home")
	env := []string{
		"PATH=" + binDir + string(os.PathListSeparator) + os.Getenv("PATH"),
		"HOME=" + home,
		"TMPDIR=" + filepath.Join(root, "tmp"),
		"XDG_CONFIG_HOME=" + filepath.Join(home, ".config"),
		"XDG_STATE_HOME=" + filepath.Join(home, ".local", "state"),
		"XDG_RUNTIME_DIR=" + filepath.Join(home, ".run"),
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=Fluzo Chaos", "GIT_AUTHOR_EMAIL=chaos@fluzo.invalid",
		"GIT_COMMITTER_NAME=Fluzo Chaos", "GIT_COMMITTER_EMAIL=chaos@fluzo.invalid",
	}
	for _, d := range []string{filepath.Join(root, "tmp"), home, filepath.Join(home, ".config"), filepath.Join(home, ".local", "state"), filepath.Join(home, ".run")} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return nil, err
		}
	}
	return env, nil
}
