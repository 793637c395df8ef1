package tui

import (
	"fmt"

	"github.com/gdamore/tcell/v2"
	"github.com/josecorral/fluzo/lib/port"
	"github.com/josecorral/fluzo/lib/tui/form"
	"github.com/josecorral/fluzo/lib/tui/identity"
	"github.com/josecorral/fluzo/lib/tui/theme"
)

// The developer menu (PRD §29.2.2; --dev-menu or tui.dev_menu = true, off
// by default) lists exactly the entries the runtime flags as its catalog
// (lib/config's DevMenuKeys): theme, animation rate, reduced motion, the
// render diagnostics overlay, notification enablement and Laya shadow
// observation. Changes preview on this screen at once and are temporary:
// Esc cancels and restores the applied values; Ctrl+A applies them and
// Ctrl+S saves them through the same validated config_change as the
// settings screens (origin dev_menu, which the runtime checks too).
// Nothing here can start a task, answer an approval, touch YOLO, budgets
// or pools, or reach a provider. Its preview pane is synthetic: sample
// logo states and notices drawn locally, never from a real session.

func devMenuAvail(a *App) string {
	switch {
	case !a.cfg.devMenu:
		return "off: start with --dev-menu or set tui.dev_menu = true"
	case len(a.cfg.entries) == 0:
		return "needs a connected workspace (the runtime answers the settings)"
	}
	return ""
}

func (a *App) openDevMenu() {
	a.cfg.form = form.New(a.cfg.entries, form.DevMenuGroups())
	a.cfg.status, a.cfg.prompt, a.cfg.origin = "", settingsPrompt{}, "dev_menu"
	a.openDialog(dialogDevMenu)
}

func (a *App) devMenuKey(ev *tcell.EventKey) {
	if a.promptKey(ev.Rune(), ev.Key() == tcell.KeyEscape) {
		return
	}
	f := a.cfg.form
	if a.formKey(ev) {
		a.applyPresentation(a.effective(f)) // the temporary preview
		return
	}
	switch ev.Key() {
	case tcell.KeyEscape: // Cancel: the preview ends, applied values return
		f.Discard()
		a.applyPresentation(a.effective(nil))
		a.dialog, a.cfg.form = dialogNone, nil
	case tcell.KeyCtrlA:
		a.sendChange("dev_menu", editsOf(f.Changes()), port.ChangeOptions{})
	case tcell.KeyCtrlS:
		a.sendChange("dev_menu", editsOf(f.Changes()), port.ChangeOptions{Save: true})
	case tcell.KeyCtrlR: // Reset: every unlocked control to its default, previewed
		for i := range f.Visible() {
			f.Move(i - f.Selected())
			if e, _ := f.Current(); !e.Locked {
				f.Reset()
			}
		}
		a.applyPresentation(a.effective(f))
	case tcell.KeyCtrlN:
		a.cfg.synthetic = (a.cfg.synthetic + 1) % len(syntheticStates)
	case tcell.KeyCtrlP: // narrow screens: the synthetic preview instead of the controls
		a.cfg.showPreview = !a.cfg.showPreview
	}
}

// syntheticStates are the logo states the preview cycles through.
var syntheticStates = []identity.State{identity.Ready, identity.Running, identity.Waiting,
	identity.Blocked, identity.Failed, identity.Completed}

var syntheticNotices = []struct {
	label string
	tok   theme.Token
	text  string
}{
	{"INFO", theme.Accent, "sample notice: a task finished"},
	{"WARNING", theme.Warning, "sample notice: waiting for approval"},
	{"ERROR", theme.Error, "sample notice: the endpoint refused"},
}

func (a *App) drawDevMenu(l layout) {
	x, y, w, h := settingsBox(l)
	footer := []string{
		" ↑/↓ select · ←/→ change · ctrl+a apply · ctrl+s save · ctrl+r defaults · ctrl+n next sample · esc cancel ",
		" ←/→ change · ctrl+a apply · ctrl+s save · ctrl+r defaults · esc cancel ",
		" ctrl+a apply · ctrl+s save · esc cancel "}
	if w < 100 { // no room beside the controls: ctrl+p swaps them for the preview
		if a.cfg.showPreview {
			a.drawSynthetic(x, y, w, h)
			a.p.put(x+2, y+h-1, w-4, line{span(" ctrl+p controls · ctrl+n next sample · esc cancel ", theme.Subtle)})
			return
		}
		footer = append([]string{" ←/→ change · ctrl+a apply · ctrl+s save · ctrl+p preview · esc cancel "}, footer[len(footer)-1])
	}
	preview := 0
	if w >= 100 {
		preview = 40
	}
	a.drawFormBox(x, y, w-preview, h, "Developer menu", footer)
	if preview > 0 {
		a.drawSynthetic(x+w-preview, y, preview, h)
	}
}

// drawSynthetic is the isolated preview: labelled synthetic, drawn from
// fixed samples, never from the session's state.
func (a *App) drawSynthetic(x, y, w, h int) {
	a.p.clear(x, y, w, h)
	a.frame(x, y, w, h, theme.Warning)
	a.p.put(x+2, y+1, w-4, line{bold("SYNTHETIC PREVIEW", theme.Warning)})
	a.p.put(x+2, y+2, w-4, line{span("not a real session; nothing is sent", theme.Muted)})
	st := syntheticStates[a.cfg.synthetic]
	identity.Compact(a.scr, x+2, y+4, a.th, identity.Frame{State: st})
	a.p.put(x+2, y+5, w-4, line{span("logo state: ", theme.Muted), span(st.String(), theme.Base)})
	row := y + 7
	for _, n := range syntheticNotices {
		if row+1 >= y+h-1 {
			break
		}
		a.p.put(x+2, row, w-4, line{bold(n.label, n.tok), span(" SAMPLE", theme.Muted)})
		a.p.put(x+2, row+1, w-4, line{span(n.text, theme.Base)})
		row += 3
	}
}

// drawRenderDiag is the rendering diagnostics overlay: the TUI's own
// redraws, labelled as such (they are not the display's refresh rate).
func (a *App) drawRenderDiag(l layout) {
	s := a.cfg.meter.Read(a.clock.Now())
	rate := fmt.Sprintf("%d/s", s.PerSecond)
	if s.Saturated {
		rate = fmt.Sprintf("%d+/s", s.PerSecond)
	}
	frame := "unknown"
	if s.Frames > 0 {
		frame = fmt.Sprintf("%.1f ms", float64(s.LastFrame.Microseconds())/1000)
	}
	rows := []line{
		{bold("render diagnostics", theme.Warning), span(" · application redraws, not display FPS", theme.Muted)},
		{span(fmt.Sprintf("redraws %s · last frame %s · skipped frames %d", rate, frame, s.Skipped), theme.Base)},
	}
	w := min(l.w-2, 62)
	x, y := l.w-1-w, l.composer.y-len(rows)
	for i, r := range rows {
		a.p.fill(x, y+i, w, ' ', theme.Base)
		a.p.put(x+1, y+i, w-1, r)
	}
}
