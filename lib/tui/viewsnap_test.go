package tui

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"
	"github.com/josecorral/fluzo/lib/tui/theme"
)

// views scripts every working surface (palette, help, tasks, diagnostics)
// from port records and keys, for the view snapshot goldens.
var views = []struct {
	name   string
	script func(h *harness)
}{
	{"palette", func(h *harness) { running(h); h.keys(key(tcell.KeyCtrlP)) }},
	{"palette-search", func(h *harness) { h.connect(); h.keys(runeKey('/')); h.keys(typed("res")...) }},
	{"help-composer", func(h *harness) { h.connect(); h.keys(key(tcell.KeyCtrlG)) }},
	{"help-chat-page2", func(h *harness) {
		h.connect()
		h.keys(key(tcell.KeyTab), key(tcell.KeyF1), key(tcell.KeyPgDn))
	}},
	{"tasks", func(h *harness) { running(h); openTasksView(h) }},
	{"tasks-loading", func(h *harness) { running(h); h.keys(key(tcell.KeyCtrlT)) }},
	{"task-detail", func(h *harness) { running(h); openTasksView(h); h.keys(key(tcell.KeyEnter)) }},
	{"task-force-stop", func(h *harness) { running(h); openTasksView(h); h.keys(key(tcell.KeyEnter), runeKey('f')) }},
	{"diagnostics", func(h *harness) {
		running(h)
		h.records(`{"v":1,"type":"result","status":"provider_error","task":"tsk_1","verification":{"completed":false,"verification":"not_run"},"error":{"code":"provider_error","message":"the model endpoint answered 401","hint":"check models.coder.api_key_env"}}`)
		h.keys(key(tcell.KeyCtrlD))
		h.ack(diagAnswer("tsk_1", "failed", 4, 1, 1200, 300, unpriced))
	}},
	// The end of the diagnosis: telemetry, then the workspace's consent.
	{"diagnostics-consent", func(h *harness) {
		running(h)
		h.keys(key(tcell.KeyCtrlD))
		h.ack(diagAnswer("tsk_1", "failed", 4, 1, 1200, 300, unpriced))
		h.keys(key(tcell.KeyPgDn), key(tcell.KeyPgDn), key(tcell.KeyPgDn), key(tcell.KeyPgDn))
	}},
	// The states around them: an unavailable action selected (its reason
	// spelled out), every task state the list labels, a search matching
	// nothing, and the diagnostics and diff views before their answers
	// and after a refusal.
	{"palette-unavailable", func(h *harness) { running(h); h.keys(key(tcell.KeyCtrlP)); h.keys(typed("quit")...) }},
	{"tasks-every-state", func(h *harness) { running(h); openEveryStateTasks(h) }},
	{"tasks-no-match", func(h *harness) { running(h); openTasksView(h); h.keys(typed("zzqq")...) }},
	{"diagnostics-loading", func(h *harness) { running(h); h.keys(key(tcell.KeyCtrlD)) }},
	{"diagnostics-refused", func(h *harness) {
		running(h)
		h.keys(key(tcell.KeyCtrlD))
		h.records(fmt.Sprintf(`{"v":1,"type":"error","re":"%d","error":{"code":"storage_error","message":"the store could not be read","hint":"check the disk"}}`, h.port.n))
	}},
	{"tasks-refused", func(h *harness) {
		running(h)
		h.keys(key(tcell.KeyCtrlT))
		h.records(fmt.Sprintf(`{"v":1,"type":"error","re":"%d","error":{"code":"storage_error","message":"the store could not be read","hint":"check the disk"}}`, h.port.n))
	}},
	{"diff-loading", func(h *harness) { running(h); h.keys(key(tcell.KeyCtrlF)) }},
	{"diff-refused", func(h *harness) {
		running(h)
		h.keys(key(tcell.KeyCtrlF))
		h.records(fmt.Sprintf(`{"v":1,"type":"error","re":"%d","error":{"code":"not_found","message":"task tsk_1 has no diff summary: none of its attempts ended","hint":"ask again when the task has a result, or resume it"}}`, h.port.n))
	}},
}

// everyState is a session holding a task in each state the tasks view
// labels (the store's pending and ready read "queued", a task blocked by
// restart recovery "interrupted").
var everyState = []string{"running", "pending", "ready", "waiting", "blocked", "blocked:interrupted", "stopping", "completed", "failed", "cancelled"}

// openEveryStateTasks opens the tasks view on everyState and answers each
// task's diagnose query.
func openEveryStateTasks(h *harness) {
	h.app.td.limits = map[string]string{"harness.max_turns": "30"}
	h.keys(key(tcell.KeyCtrlT))
	n := h.port.n
	rows := make([]string, len(everyState))
	for i, st := range everyState {
		state, reason, _ := strings.Cut(st, ":")
		rows[i] = fmt.Sprintf(`{"id":"tsk_%d","session":"ses_1","request":"request %d","state":"%s","reason":"%s","created_at":"2026-12-01T18:00:00Z","updated_at":"2026-12-01T18:0%d:05Z"}`, i, i, state, reason, i)
	}
	h.ackN(n, `{"tasks":[`+strings.Join(rows, ",")+`]}`)
	for i, st := range everyState {
		state, _, _ := strings.Cut(st, ":")
		h.ackN(n+1+i, diagAnswer(fmt.Sprintf("tsk_%d", i), state, i, 0, int64(100*i), int64(10*i), unpriced))
	}
}

// viewSizes are the reference sizes; the minimum (60x16) is added where
// each view's snapshots are taken.
var viewSizes = [][2]int{{80, 24}, {120, 40}, {160, 50}}

var minSize = [2]int{60, 16}

var viewVariants = []struct {
	name string
	opts Options
}{
	{"default", Options{Caps: theme.Caps{Depth: theme.TrueColor}}},
	{"high-contrast", Options{Theme: "high-contrast", Caps: theme.Caps{Depth: theme.TrueColor}}},
	{"no-color", Options{Caps: theme.Caps{Depth: theme.NoColor}}},
}

func TestViewSnapshots(t *testing.T) {
	for _, v := range views {
		for _, sz := range append([][2]int{minSize}, viewSizes...) {
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

// At the minimum size every view still says how to close it: its hint row
// drops other keys first (fitHint).
func TestEveryViewShowsItsWayOutAtTheMinimumSize(t *testing.T) {
	type view = struct {
		name   string
		script func(h *harness)
	}
	all := append(append(append(append([]view(nil), views...), diffViews...), diagViews...), sessionViews...)
	for _, v := range all {
		// Dialogs offer their choices as the way out; editing a queued
		// message is the composer, which says "esc stops editing".
		if strings.HasPrefix(v.name, "resume") || v.name == "task-force-stop" || v.name == "intervention-edit" {
			continue
		}
		h := newHarness(t, minSize[0], minSize[1], Options{FPS: 0})
		v.script(h)
		h.app.dirty.all = true
		h.app.render()
		rows := h.screenText()
		found := false
		for _, r := range rows {
			for _, way := range []string{"esc close ", "esc back ", "esc or ctrl+g closes "} {
				found = found || strings.Contains(r, way)
			}
		}
		if !found {
			t.Errorf("%s at %dx%d: no row says esc closes it", v.name, minSize[0], minSize[1])
		}
	}
	for _, c := range []struct {
		hint string
		w    int
		want string
	}{
		{" ↑/↓ file · pgup/pgdn page · v verification · esc close · never stages ", 30, " ↑/↓ file · esc close "},
		{" c cancel (graceful) · f force stop (asks) · esc back ", 40, " c cancel · f force stop · esc back "},
		{" a · esc back ", 13, " a · esc back"},
		{" a · esc back ", 12, " esc back "},
		{" esc or ctrl+g closes ", 12, " esc or ctr…"},
	} {
		if got := fitHint(c.hint, c.w); got != c.want {
			t.Errorf("fitHint(%q, %d) = %q, want %q", c.hint, c.w, got, c.want)
		}
	}
}
