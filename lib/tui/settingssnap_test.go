package tui

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/gdamore/tcell/v2"
)

// settingsViews script the settings screens, the theme picker and the
// developer menu for the snapshot goldens.
var settingsViews = []struct {
	name   string
	opts   Options
	script func(h *harness)
}{
	{"settings-limits", Options{}, func(h *harness) {
		h.connectSettings(func(e map[string]map[string]any) {
			e["harness.max_tool_calls"]["source"], e["harness.max_tool_calls"]["locked"] = "cli", true
		})
		h.keys(key(tcell.KeyF2), key(tcell.KeyTab), key(tcell.KeyRight), key(tcell.KeyDown), key(tcell.KeyDown))
		h.keys(key(tcell.KeyRight))
	}},
	{"settings-invalid", Options{}, func(h *harness) {
		h.connectSettings(nil)
		h.keys(key(tcell.KeyF2), key(tcell.KeyTab), key(tcell.KeyEnter), key(tcell.KeyBackspace2), key(tcell.KeyBackspace2))
		h.keys(typed("0")...)
		h.keys(key(tcell.KeyEnter))
	}},
	{"theme-picker", Options{}, func(h *harness) {
		h.connectSettings(nil)
		h.keys(key(tcell.KeyF3), key(tcell.KeyDown))
	}},
	{"dev-menu", Options{DevMenu: true, DevMenuSet: true}, func(h *harness) {
		h.connectSettings(nil)
		h.keys(key(tcell.KeyF4), key(tcell.KeyDown), key(tcell.KeyLeft))
	}},
	{"dev-menu-preview", Options{DevMenu: true, DevMenuSet: true}, func(h *harness) {
		h.connectSettings(nil)
		h.keys(key(tcell.KeyF4), key(tcell.KeyCtrlP), key(tcell.KeyCtrlN), key(tcell.KeyCtrlN))
	}},
}

func TestSettingsViewSnapshots(t *testing.T) {
	sizes := append([][2]int{{minW, minH}}, viewSizes...)
	for _, v := range settingsViews {
		for _, sz := range sizes {
			for _, vr := range viewVariants {
				name := fmt.Sprintf("view-%s-%dx%d-%s", v.name, sz[0], sz[1], vr.name)
				t.Run(name, func(t *testing.T) {
					opts := vr.opts
					opts.FPS, opts.DevMenu, opts.DevMenuSet = 0, v.opts.DevMenu, v.opts.DevMenuSet
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
