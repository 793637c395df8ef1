package tui

import (
	"github.com/gdamore/tcell/v2"
	"github.com/josecorral/fluzo/lib/port"
	"github.com/josecorral/fluzo/lib/tui/form"
	"github.com/josecorral/fluzo/lib/tui/theme"
)

// The theme picker (palette → Theme, PRD §29.1): moving previews a theme
// on the whole screen at once; Esc restores the theme in effect when it
// opened, Enter applies the previewed one for this session and Ctrl+S
// also saves it as tui.theme. The options are tui.theme's, from the
// registry.

func themeAvail(a *App) string {
	switch {
	case a.opts.Theme != "":
		return "set by --theme for this session (locked)"
	case a.themeEntry() == nil:
		return "needs a connected workspace (the runtime answers the settings)"
	}
	return ""
}

func (a *App) themeEntry() *form.Entry {
	for i := range a.cfg.entries {
		if a.cfg.entries[i].Key == "tui.theme" {
			return &a.cfg.entries[i]
		}
	}
	return nil
}

func (a *App) openThemePicker() {
	e := a.themeEntry()
	a.cfg.picker = form.NewPicker(e.Options, e.Value)
	a.cfg.status, a.cfg.prompt, a.cfg.origin = "", settingsPrompt{}, "theme_picker"
	a.openDialog(dialogTheme)
}

func (a *App) themeKey(ev *tcell.EventKey) {
	p := a.cfg.picker
	if a.promptKey(ev.Rune(), ev.Key() == tcell.KeyEscape) {
		return
	}
	switch ev.Key() {
	case tcell.KeyUp, tcell.KeyLeft, tcell.KeyBacktab:
		a.setTheme(themeName(p.Move(-1)))
	case tcell.KeyDown, tcell.KeyRight, tcell.KeyTab:
		a.setTheme(themeName(p.Move(1)))
	case tcell.KeyEscape:
		a.setTheme(themeName(p.Prior()))
		a.closePicker()
	case tcell.KeyEnter, tcell.KeyCtrlS:
		save := ev.Key() == tcell.KeyCtrlS
		edits := []port.ConfigEdit{{Key: "tui.theme", Value: p.Preview()}}
		if !p.Changed() && !save {
			a.closePicker()
			return
		}
		a.sendChange("theme_picker", edits, port.ChangeOptions{Save: save})
		if !save {
			a.closePicker()
		}
	}
}

func (a *App) closePicker() {
	a.dialog, a.cfg.picker = dialogNone, nil
}

func (a *App) drawThemePicker(l layout) {
	p := a.cfg.picker
	x, y, w, h := overlayBox(l, 12)
	a.p.clear(x, y, w, h)
	a.frame(x, y, w, h, theme.Accent)
	a.p.put(x+2, y+1, w-4, line{bold("Theme", theme.Accent), span("  live preview: the whole screen shows it", theme.Muted)})
	for i, o := range p.Options() {
		tok, mark := theme.Base, "  "
		if i == p.Selected() {
			tok, mark = theme.OnSelection, a.p.glyph("› ", "> ")
			a.p.fill(x+1, y+3+i, w-2, ' ', theme.OnSelection)
		}
		label := o
		if o == p.Prior() {
			label += " (in effect)"
		}
		a.p.put(x+2, y+3+i, w-4, line{span(mark+label, tok)})
	}
	sample := y + 4 + len(p.Options())
	a.p.put(x+2, sample, w-4, line{span("Sample: ", theme.Muted), span("accent ", theme.Accent), span("success ", theme.Success),
		span("warning ", theme.Warning), span("error ", theme.Error), span("muted", theme.Muted)})
	for i, t := range a.cfg.prompt.text {
		if r := sample + 2 + i; r < y+h-2 {
			a.p.put(x+2, r, w-4, line{span(t, theme.Warning)})
		}
	}
	if a.cfg.status != "" {
		tok := theme.Success
		if a.cfg.isError {
			tok = theme.Error
		}
		a.p.put(x+2, y+h-2, w-4, line{span(a.cfg.status, tok)})
	}
	a.p.put(x+2, y+h-1, w-4, line{span(" ↑/↓ preview · enter apply · ctrl+s save · esc restore ", theme.Subtle)})
}
