package agent

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/store"
)

// seedDiffTask writes a finished task whose recorded diff summary lists
// the working tree's changes, as the end of an attempt records them.
func seedDiffTask(t *testing.T, s *store.Store, head string) string {
	t.Helper()
	var id string
	err := s.Write(context.Background(), func(tx *store.Tx) error {
		sess := core.Session{Title: "t"}
		if _, err := tx.CreateSession(&sess); err != nil {
			return err
		}
		task := core.Task{SessionID: sess.ID, Request: "change it"}
		if _, err := tx.CreateTask(&task); err != nil {
			return err
		}
		id = task.ID
		summary := fmt.Sprintf(`{"v":1,"type":"diff_summary","head_before":%q,"head_after":%q,"pre_existing":["notes.txt"],
			"changed":[{"path":"README","kind":"changed"},{"path":"big.txt","kind":"changed"},{"path":"new.go","kind":"changed","uncertain":true}]}`, head, head)
		verdict := `{"completed":false,"verification":"failed","reason":"verification_failed","evidence":{"command":"go test ./...","exit_code":1,"edit_seq":2,"output":"--- FAIL: TestX\nFAIL"}}`
		edit := `{"tool":"write","from":"dispatched","to":"succeeded"}`
		failedEdit := `{"tool":"edit","from":"dispatched","to":"failed"}`
		view := `{"tool":"view","from":"dispatched","to":"succeeded"}`
		// One edit before the verification, then the verification, then
		// an edit, a failed edit and a view: one edit since it ran.
		for _, e := range [][2]string{{core.EvOperationResult, edit}, {core.EvDiffSummary, summary}, {core.EvVerification, verdict},
			{core.EvOperationResult, edit}, {core.EvOperationResult, failedEdit}, {core.EvOperationResult, view}} {
			if _, err := tx.Append(core.Event{Type: e[0], Session: sess.ID, Task: task.ID, Data: json.RawMessage(e[1])}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func gitOut(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).Output()
	if err != nil {
		t.Fatalf("git %v: %v", args, err)
	}
	return strings.TrimSpace(string(out))
}

func fileSum(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

func TestPortDiffPagesOnePathsPatchWithoutTouchingGit(t *testing.T) {
	var dir, head, index string
	var big strings.Builder
	for i := 1; i <= 5000; i++ {
		fmt.Fprintf(&big, "line %d\n", i)
	}
	ans, _ := portRecordsSeeded(t, func(s *store.Store) []string {
		dir = s.Workspace().Root
		head = gitOut(t, dir, "rev-parse", "HEAD")
		writeFiles(t, dir, map[string]string{"README": "x\ny\n", "new.go": "package a\n\nfunc A() {}\n", "notes.txt": "mine\n", "big.txt": big.String()})
		index = fileSum(t, filepath.Join(dir, ".git", "index"))
		id := seedDiffTask(t, s, head)
		q := func(rid, extra string) string {
			return `{"v":1,"id":"` + rid + `","cmd":"diff","task":"` + id + `"` + extra + `}`
		}
		return []string{q("sum", ""), q("readme", `,"path":"README"`), q("new", `,"path":"new.go"`),
			q("page", `,"path":"big.txt","offset":4000,"limit":10`), q("user", `,"path":"notes.txt"`),
			q("other", `,"path":"/etc/passwd"`), q("huge", `,"path":"big.txt","limit":100000`), q("nopath", `,"offset":3`)}
	})
	data := func(rid string) map[string]any {
		d, ok := ans[rid]["data"].(map[string]any)
		if !ok {
			t.Fatalf("%s: %v", rid, ans[rid])
		}
		return d
	}
	sum := data("sum")
	if sum["state"] != "pending" || sum["live"] != false || !strings.Contains(jsonOf(t, sum["verification"]), `"exit_code":1`) || sum["edits_since_verification"] != 1.0 {
		t.Fatalf("summary answer: %v", sum)
	}
	patch := func(rid string) PatchWindow {
		var w PatchWindow
		decodeInto(t, data(rid)["patch"], &w)
		return w
	}
	if w := patch("readme"); strings.Join(w.Lines, "|") != "@@ -1 +1,2 @@| x|+y" || w.Added != 1 || w.Removed != 0 || w.Total != 3 || w.Against != head {
		t.Fatalf("README window: %+v", w)
	}
	if w := patch("new"); strings.Join(w.Lines, "|") != "@@ -0,0 +1,3 @@|+package a|+|+func A() {}" || w.Added != 3 {
		t.Fatalf("an untracked file is all added: %+v", w)
	}
	if w := patch("page"); len(w.Lines) != 10 || w.Lines[0] != "+line 4000" || w.Total != 5001 || w.Added != 5000 || w.Offset != 4000 {
		t.Fatalf("one window of a large diff: offset %d total %d added %d lines %q", w.Offset, w.Total, w.Added, w.Lines)
	}
	if w := patch("user"); strings.Join(w.Lines, "|") != "@@ -0,0 +1 @@|+mine" && strings.Join(w.Lines, "|") != "@@ -0,0 +1,1 @@|+mine" {
		t.Fatalf("a pre-existing user change is diffable too: %+v", w)
	}
	for rid, want := range map[string]string{"other": "not_found", "huge": "invalid_request", "nopath": "invalid_request"} {
		if got := errCode(ans[rid]); got != want {
			t.Errorf("%s: code %q, want %q (%v)", rid, got, want, ans[rid])
		}
	}
	if gitOut(t, dir, "rev-parse", "HEAD") != head || fileSum(t, filepath.Join(dir, ".git", "index")) != index || gitOut(t, dir, "diff", "--cached", "--name-only") != "" {
		t.Fatal("reviewing a diff staged, committed or rewrote the index")
	}
}
