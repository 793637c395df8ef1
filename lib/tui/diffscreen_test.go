package tui

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"
)

// diffAnswer is a diff summary answer; changed and verification are JSON.
func diffAnswer(state, changed, pre, verification string) string {
	v := ""
	if verification != "" {
		v = `,"verification":` + verification
	}
	return fmt.Sprintf(`{"task":"tsk_1","state":%q,"live":false,"attempt":"att_1","diff":{"v":1,"type":"diff_summary","head_before":"6eeace83d7e9cbbb562f716fbb0efba82ae10b92","head_after":"6eeace83d7e9cbbb562f716fbb0efba82ae10b92","pre_existing":[%s],"changed":[%s]}%s}`, state, pre, changed, v)
}

const (
	changedSmall = `{"path":"src/count.go","kind":"changed","added":3,"removed":1},{"path":"README.md","kind":"changed","added":1,"removed":0}`
	passed       = `{"completed":true,"verification":"passed","evidence":{"command":"go test ./...","exit_code":0,"edit_seq":2,"output":"ok  \tgithub.com/x/wordcount\t0.012s"}}`
	failed       = `{"completed":false,"verification":"failed","reason":"verification_failed","evidence":{"command":"go test ./...","exit_code":1,"edit_seq":2,"output":"=== RUN   TestCount\n--- FAIL: TestCount (0.00s)\n    count_test.go:12: got 2, want 3\nFAIL\nFAIL\tgithub.com/x/wordcount\t0.010s"}}`
	stale        = `{"completed":false,"verification":"stale","reason":"workspace_changed_after_verification","edits_since":2,"evidence":{"command":"go test ./...","exit_code":0,"edit_seq":1,"output":"ok  \tgithub.com/x/wordcount"}}`
	notRun       = `{"completed":false,"verification":"not_run","reason":"task_stopped"}`
)

// windowAnswer answers the app's latest diff window request from lines,
// the whole diff of the path (total = len(lines)).
func windowAnswer(h *harness, lines []string) string {
	args := h.port.last("diff")
	offset, _ := args["offset"].(int)
	limit, _ := args["limit"].(int)
	end := min(offset+limit, len(lines))
	added, removed := 0, 0
	for _, l := range lines {
		switch {
		case strings.HasPrefix(l, "+"):
			added++
		case strings.HasPrefix(l, "-"):
			removed++
		}
	}
	b, _ := json.Marshal(map[string]any{"task": "tsk_1", "live": false, "patch": map[string]any{"path": args["path"], "against": "6eeace83d7e9cbbb562f716fbb0efba82ae10b92",
		"offset": offset, "total": len(lines), "added": added, "removed": removed, "lines": lines[min(offset, end):end]}})
	return string(b)
}

var smallPatch = []string{"@@ -1,6 +1,8 @@", " package wordcount", " ", `-// Count counts words.`, `+// Count counts the words of s,`, `+// split on any whitespace.`, " func Count(s string) int {", `+	s = strings.TrimSpace(s)`, " 	return len(strings.Fields(s))", " }"}

func bigPatch(n int) []string {
	out := []string{fmt.Sprintf("@@ -0,0 +1,%d @@", n)}
	for i := 1; i <= n; i++ {
		out = append(out, fmt.Sprintf("+var line%d = %d // generated", i, i))
	}
	return out
}

// openDiffView opens the view and answers the summary and first window.
func openDiffView(h *harness, summary string, patch []string) {
	h.keys(key(tcell.KeyCtrlF))
	h.ack(summary)
	h.ack(windowAnswer(h, patch))
}

var diffViews = []struct {
	name   string
	script func(h *harness)
}{
	{"diff-small", func(h *harness) {
		running(h)
		openDiffView(h, diffAnswer("completed", changedSmall, "", passed), smallPatch)
	}},
	{"diff-user-apart", func(h *harness) {
		running(h)
		openDiffView(h, diffAnswer("completed", changedSmall+`,{"path":"go.mod","kind":"modified","pre_existing":true}`, `"notes/todo.txt","scratch.go"`, passed), smallPatch)
	}},
	{"diff-uncertain", func(h *harness) {
		running(h)
		openDiffView(h, diffAnswer("completed", `{"path":"gen/out.go","kind":"changed","uncertain":true,"reason":"not written by the task's file tools: a process, the user or another program changed it","added":2,"removed":0},`+changedSmall, "", passed), []string{"@@ -0,0 +1,2 @@", "+package gen", "+var X = 1"})
	}},
	{"diff-large-paged", func(h *harness) {
		running(h)
		big := bigPatch(100000)
		openDiffView(h, diffAnswer("completed", `{"path":"gen/table.go","kind":"changed","added":100000,"removed":0}`, "", passed), big)
		for i := 0; i < 12; i++ {
			h.keys(key(tcell.KeyPgDn))
			if h.app.dv.winReq != "" {
				h.ack(windowAnswer(h, big))
			}
		}
	}},
	{"verify-passed", func(h *harness) {
		running(h)
		openDiffView(h, diffAnswer("completed", changedSmall, "", passed), smallPatch)
		h.keys(runeKey('v'))
	}},
	{"verify-failed", func(h *harness) {
		running(h)
		openDiffView(h, diffAnswer("failed", changedSmall, "", failed), smallPatch)
		h.keys(runeKey('v'))
	}},
	{"verify-stale", func(h *harness) {
		running(h)
		openDiffView(h, diffAnswer("failed", changedSmall, "", stale), smallPatch)
		h.keys(runeKey('v'))
	}},
	{"diff-cancelled-partial", func(h *harness) {
		running(h)
		openDiffView(h, diffAnswer("cancelled", `{"path":"src/count.go","kind":"changed","added":3,"removed":1}`, "", notRun), smallPatch)
	}},
}

func TestDiffViewSnapshots(t *testing.T) {
	for _, v := range diffViews {
		for _, sz := range append([][2]int{{60, 16}}, viewSizes...) {
			for _, vr := range viewVariants {
				name := fmt.Sprintf("view-%s-%dx%d-%s", v.name, sz[0], sz[1], vr.name)
				t.Run(name, func(t *testing.T) {
					opts := vr.opts
					opts.FPS = 0
					h := newHarness(t, sz[0], sz[1], opts)
					v.script(h)
					h.app.dirty.all = true
					h.app.render()
					checkGolden(t, filepath.Join("testdata", "snapshots", name+".txt"), snapshot(h))
				})
			}
		}
	}
}

// Closing the view gives back the focus, the draft and the conversation's
// scroll exactly as they were, and the view sent only read queries.
func TestDiffViewClosesBackToFocusDraftAndScroll(t *testing.T) {
	h := newHarness(t, 120, 40, Options{FPS: 0})
	running(h)
	for i := 0; i < 60; i++ {
		h.records(ev(10+i, "message", "", fmt.Sprintf(`{"role":"assistant","text":"line %d"}`, i)))
	}
	h.keys(key(tcell.KeyTab), key(tcell.KeyPgUp))
	h.app.render()
	scroll, follow := h.app.scroll, h.app.follow
	if follow {
		t.Fatal("setup: pgup in the conversation pauses following")
	}
	h.keys(key(tcell.KeyTab))
	h.keys(typed("half a thought")...)
	focus, draft := h.app.focus, h.app.comp.text
	openDiffView(h, diffAnswer("completed", changedSmall, `"notes.txt"`, passed), smallPatch)
	h.keys(key(tcell.KeyDown), key(tcell.KeyDown), key(tcell.KeyPgDn), runeKey('v'), key(tcell.KeyPgDn), key(tcell.KeyEscape))
	h.app.render()
	if h.app.dialog != dialogNone || h.app.focus != focus || h.app.comp.text != draft || h.app.scroll != scroll || h.app.follow != follow {
		t.Fatalf("after closing: dialog %v focus %v draft %q scroll %d follow %v; want focus %v draft %q scroll %d follow %v",
			h.app.dialog, h.app.focus, h.app.comp.text, h.app.scroll, h.app.follow, focus, draft, scroll, follow)
	}
	for _, c := range h.port.cmds() {
		if c != "subscribe" && c != "settings" && c != "start_task" && c != "diff" && c != "events" && c != "task" {
			t.Errorf("the diff view sent %q: it only reads", c)
		}
	}
	if got := h.port.last("diff"); got["path"] != "notes.txt" {
		t.Fatalf("down selects the user's own change, in its own section: %v", got)
	}
	openDiffView(h, diffAnswer("running", changedSmall, "", ""), smallPatch)
	h.keys(runeKey('r'))
	if got := h.port.last("diff"); got["path"] != nil || h.app.dv.sum != nil || h.app.dialog != dialogDiff {
		t.Fatalf("r asks for the summary again: %v", got)
	}
}

func TestDiffViewShowsARefusalInTheView(t *testing.T) {
	h := newHarness(t, 120, 40, Options{FPS: 0})
	running(h)
	h.keys(key(tcell.KeyCtrlF))
	h.records(fmt.Sprintf(`{"v":1,"type":"error","re":"%d","error":{"code":"not_found","message":"task tsk_1 has no diff summary: none of its attempts ended","hint":"ask again when the task has a result, or resume it"}}`, h.port.n))
	h.app.render()
	h.mustShow("no diff: task tsk_1 has no diff summary")
}

// At the minimum size a refusal still shows its hint (wrapped, not cut)
// and the hint row still says how to close the view.
func TestDiffRefusalWrapsAndTheWayOutStaysAtTheMinimumSize(t *testing.T) {
	h := newHarness(t, 60, 16, Options{FPS: 0})
	running(h)
	h.keys(key(tcell.KeyCtrlF))
	h.records(fmt.Sprintf(`{"v":1,"type":"error","re":"%d","error":{"code":"not_found","message":"task tsk_1 has no diff summary: none of its attempts ended","hint":"ask again when the task has a result"}}`, h.port.n))
	h.app.dirty.all = true
	h.app.render()
	h.mustShow("has a result)")
	h.mustShow("esc close")
}
