package tui

import (
	"fmt"
	"path/filepath"
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
}

var viewSizes = [][2]int{{80, 24}, {120, 40}, {160, 50}}

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
		for _, sz := range viewSizes {
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
