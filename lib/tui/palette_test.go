package tui

import (
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"
)

func TestSlashInAnEmptyComposerOpensThePalette(t *testing.T) {
	h := newHarness(t, 120, 40, Options{FPS: 0})
	h.connect()
	h.keys(runeKey('/'))
	if h.app.dialog != dialogPalette {
		t.Fatal("/ in an empty composer must open the palette")
	}
	h.mustShow("type to search every action")
	h.keys(key(tcell.KeyEscape))
	h.keys(typed("a/b")...)
	if h.app.dialog != dialogNone || h.app.comp.text != "a/b" {
		t.Fatalf("/ inside a draft is a character: dialog %v draft %q", h.app.dialog, h.app.comp.text)
	}
	h.keys(key(tcell.KeyCtrlP))
	if h.app.dialog != dialogPalette {
		t.Fatal("ctrl+p must open the palette with a draft too")
	}
}

func TestPaletteSearchRunsTheAction(t *testing.T) {
	h := newHarness(t, 120, 40, Options{FPS: 0})
	h.connect()
	h.keys(key(tcell.KeyCtrlP))
	h.keys(typed("yolo")...)
	h.mustShow("> yolo")
	h.mustShow("YOLO on / off (asks)")
	h.mustShow("ctrl+y")
	h.keys(key(tcell.KeyEnter))
	if h.app.dialog != dialogYolo {
		t.Fatalf("enter on the YOLO entry must open the YOLO dialog, dialog %v", h.app.dialog)
	}
	if h.port.last("set_yolo") != nil {
		t.Fatal("the palette runs the action, and the action asks: nothing is sent yet")
	}
}

func TestPaletteSaysWhyAnActionIsUnavailable(t *testing.T) {
	h := newHarness(t, 120, 40, Options{FPS: 0})
	h.connect()
	h.keys(key(tcell.KeyCtrlP))
	h.keys(typed("resume")...)
	h.mustShow("Resume an interrupted, blocked or failed task (asks) — no")
	h.mustShow("unavailable: no interrupted, blocked or failed task")
	h.keys(key(tcell.KeyEnter))
	if h.app.dialog != dialogPalette {
		t.Fatalf("an unavailable action must not run, dialog %v", h.app.dialog)
	}
	h.keys(key(tcell.KeyCtrlU))
	h.keys(typed("approve")...)
	h.mustShow("answered only on the focused card")
	running(h)
	h.records(ev(4, "operation.requested", "op_7", `{"tool":"exec"}`), ev(5, "permission.requested", "", permExec))
	h.clock.Advance(armingWindow)
	h.keys(key(tcell.KeyEnter))
	if h.port.last("approve") != nil {
		t.Fatal("the palette must never answer an approval")
	}
}

func TestPaletteListsEveryRunnableActionWithItsKey(t *testing.T) {
	h := newHarness(t, 160, 50, Options{FPS: 0})
	h.connect()
	h.keys(key(tcell.KeyCtrlP))
	seen := map[string]bool{}
	for i := 0; i < len(registry); i++ {
		for _, row := range h.screenText() {
			seen[row] = true
		}
		h.keys(key(tcell.KeyDown))
	}
	all := ""
	for row := range seen {
		all += row + "\n"
	}
	n := 0
	for _, act := range registry {
		if act.run == nil {
			continue
		}
		n++
		if !strings.Contains(all, act.title) || !strings.Contains(all, act.keys) {
			t.Errorf("the palette never shows %q with its key %q", act.title, act.keys)
		}
	}
	if n < 15 {
		t.Fatalf("only %d runnable actions", n)
	}
}

func TestGlobalKeysRunTheirRegistryEntry(t *testing.T) {
	h := newHarness(t, 120, 40, Options{FPS: 0})
	h.connect()
	for _, k := range []tcell.Key{tcell.KeyCtrlP, tcell.KeyCtrlG, tcell.KeyF1, tcell.KeyCtrlY} {
		h.keys(key(k))
		if h.app.dialog == dialogNone {
			t.Errorf("key %v opened nothing", k)
		}
		h.keys(key(tcell.KeyEscape))
	}
	h.keys(key(tcell.KeyCtrlR))
	if h.app.dialog != dialogNone || !strings.Contains(h.app.notice, "no interrupted, blocked or failed task") {
		t.Fatalf("ctrl+r with nothing to resume must say why: dialog %v notice %q", h.app.dialog, h.app.notice)
	}
}

func TestHelpIsTheRegistryPaged(t *testing.T) {
	h := newHarness(t, 80, 24, Options{FPS: 0})
	h.connect()
	h.keys(key(tcell.KeyTab), key(tcell.KeyCtrlG))
	pages := h.app.helpPages(h.app.layout())
	if pages < 2 {
		t.Fatalf("at 80x24 the chat context must page, got %d page(s)", pages)
	}
	h.mustShow("page 1/")
	var all []string
	for p := 0; p < pages; p++ {
		all = append(all, h.screenText()...)
		h.keys(key(tcell.KeyPgDn))
	}
	h.mustShow("page " + string(rune('0'+pages)) + "/")
	text := strings.Join(all, "\n")
	for _, act := range h.app.helpRows() {
		if !strings.Contains(text, act.keys) {
			t.Errorf("help never shows the key %q of %q", act.keys, act.title)
		}
	}
	if strings.Contains(text, "Composer") {
		t.Error("the chat context's help must not list composer keys")
	}
}

func TestFuzzyScorePrefersWordStarts(t *testing.T) {
	if _, ok := fuzzyScore("xyz", "Force stop"); ok {
		t.Fatal("xyz is no subsequence of Force stop")
	}
	fs, _ := fuzzyScore("fs", "Force stop")
	os, ok := fuzzyScore("fs", "offset")
	if !ok || fs <= os {
		t.Fatalf("word starts must score more: %d vs %d", fs, os)
	}
}

// Every view returns focus, draft and scroll as they were.
func TestClosingAViewKeepsFocusDraftAndScroll(t *testing.T) {
	for _, open := range []struct {
		name string
		keys []tcell.Event
	}{
		{"palette", []tcell.Event{key(tcell.KeyCtrlP)}},
		{"help", []tcell.Event{key(tcell.KeyCtrlG)}},
		{"tasks", []tcell.Event{key(tcell.KeyCtrlT)}},
		{"task detail", []tcell.Event{key(tcell.KeyCtrlT)}},
		{"diagnostics", []tcell.Event{key(tcell.KeyCtrlD), key(tcell.KeyPgDn)}},
	} {
		t.Run(open.name, func(t *testing.T) {
			h := newHarness(t, 80, 24, Options{FPS: 0})
			running(h)
			for i := 0; i < 40; i++ {
				h.records(delta("line of output\n"))
			}
			h.keys(typed("half typed")...)
			h.keys(key(tcell.KeyLeft), key(tcell.KeyPgUp))
			scroll, cursor, follow := h.app.scroll, h.app.comp.cursor, h.app.follow
			h.keys(open.keys...)
			if h.app.dialog == dialogNone {
				t.Fatalf("%s did not open", open.name)
			}
			if h.app.dialog == dialogTasks {
				h.ackN(h.port.n, tasksAnswer)
			}
			if open.name == "task detail" {
				h.keys(key(tcell.KeyEnter))
				h.mustShow("Task tsk_1")
			}
			h.keys(typed("xq")...)
			for i := 0; i < 3 && h.app.dialog != dialogNone; i++ {
				h.keys(key(tcell.KeyEscape)) // the detail goes back to the list first
			}
			a := h.app
			if a.dialog != dialogNone || a.focus != focusComposer || a.comp.text != "half typed" || a.comp.cursor != cursor || a.scroll != scroll || a.follow != follow {
				t.Fatalf("after %s: dialog %v focus %v draft %q cursor %d/%d scroll %d/%d follow %v",
					open.name, a.dialog, a.focus, a.comp.text, a.comp.cursor, cursor, a.scroll, scroll, a.follow)
			}
			if h.port.last("cancel") != nil {
				t.Fatal("closing a view must not cancel anything")
			}
		})
	}
}

func TestCtrlCWhileATaskStartsNeitherQuitsNorCancels(t *testing.T) {
	h := newHarness(t, 120, 40, Options{FPS: 0})
	h.connect()
	h.keys(typed("fix it")...)
	h.keys(key(tcell.KeyEnter), key(tcell.KeyCtrlC))
	if h.app.quitting || h.port.last("cancel") != nil {
		t.Fatalf("ctrl+c before the task has an id: quitting %v", h.app.quitting)
	}
	h.mustShow("the task is starting")
}
