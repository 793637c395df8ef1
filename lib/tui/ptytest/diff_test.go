package ptytest

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// bigFileScenario has the model write a 3000-line file and finish. Its
// filler lines differ from the marker in every cell, so the marker's
// arrival on screen shows in tcell's cell-diffed output.
func bigFileScenario() string {
	var b strings.Builder
	for i := 1; i <= 3000; i++ {
		if i == 1500 {
			b.WriteString("ZZMIDDLEZZ\n")
			continue
		}
		fmt.Fprintf(&b, "aaaa %d\n", i)
	}
	content, _ := json.Marshal(b.String())
	return fmt.Sprintf(`{"version":1,"name":"big-file","models":["sim"],"steps":[
 {"id":"write","match":{"last_user":"big file"},"respond":{"tool_calls":[{"id":"call_w","name":"write","arguments":{"path":"big.txt","content":%s,"expect_version":"absent"}}]}},
 {"id":"done","match":{"tool_result":{"tool":"write"}},"respond":{"text":"WROTE-THE-FILE"}}]}`, content)
}

func gitState(t *testing.T, ws string, env []string) string {
	t.Helper()
	cmd := exec.Command("git", "rev-parse", "HEAD")
	cmd.Dir, cmd.Env = ws, env
	head, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	index, err := os.ReadFile(filepath.Join(ws, ".git", "index"))
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(index)
	return strings.TrimSpace(string(head)) + " index " + hex.EncodeToString(sum[:])
}

// The diff view pages a large diff with PgDn/PgUp through the port's
// windows, never stages or commits anything, and closing it gives the
// composer back its draft and the keys, with the conversation still
// scrolled where it was (paused, not following).
func TestDiffViewPagesALargeDiffAndGivesTheComposerBack(t *testing.T) {
	s := startSim(t, bigFileScenario())
	ws, env := workspace(t, s, "")
	tm := startTUI(t, ws, env, 120, 40, "--reduced-motion")
	_, from := tm.waitFor("connected", 0, 30*time.Second)
	tm.write("write the big file\r")
	_, from = tm.waitFor("WROTE-THE-FILE", from, 60*time.Second)
	_, from = tm.waitFor("completed", from, 60*time.Second)
	before := gitState(t, ws, env)

	tm.write("keep my draft")
	_, from = tm.waitFor("keep my draft", from, 10*time.Second)
	tm.write("\x1b[5~") // PgUp in the composer scrolls the conversation: paused
	_, from = tm.waitFor("paused", from, 10*time.Second)
	tm.write("\x06") // ctrl+f
	_, from = tm.waitFor("Diff & verification", from, 10*time.Second)
	_, from = tm.waitFor("@@ -0,0 +1,3000 @@", from, 20*time.Second)
	found := false
	for i := 0; i < 200 && !found; i++ {
		tm.write("\x1b[6~") // PgDn
		_, end, ok := tm.tryWait("ZZMIDDLEZZ", from, 300*time.Millisecond)
		if ok {
			found, from = true, end
		}
	}
	if !found {
		t.Fatal("PgDn never reached line 1500 of the diff")
	}
	found = false
	for i := 0; i < 200 && !found; i++ {
		tm.write("\x1b[5~") // PgUp
		_, end, ok := tm.tryWait("@@ -0,0 +1,3000 @@", from, 300*time.Millisecond)
		if ok {
			found, from = true, end
		}
	}
	if !found {
		t.Fatal("PgUp never came back to the first hunk")
	}
	// Esc closes the view; the keys typed next go to the composer, after
	// the draft. A redraw (ctrl+l) writes the row whole, so the draft's
	// end and the new keys show as one run of text.
	tm.write("\x1b")
	time.Sleep(200 * time.Millisecond) // a lone ESC is told from a sequence by a pause
	tm.write("QQZZ")
	tm.write("\x0c")
	tm.waitFor("draftQQZZ", from, 10*time.Second)
	tm.waitFor("paused", from, 10*time.Second) // the conversation did not jump back to following
	if after := gitState(t, ws, env); after != before {
		t.Fatalf("reviewing the diff changed git's HEAD or index:\nbefore %s\nafter  %s", before, after)
	}
	tm.write("\x15\x03") // clear the draft, quit
	tm.waitExit(10 * time.Second)
}
