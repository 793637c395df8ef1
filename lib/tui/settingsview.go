package tui

import (
	"strconv"
	"strings"

	"github.com/gdamore/tcell/v2"
	"github.com/josecorral/fluzo/lib/tui/form"
	"github.com/josecorral/fluzo/lib/tui/theme"
)

// The settings screens (palette → Settings, or F2): one screen per group
// of the registry, a row per key with its value and markers, and the
// selected key's details (default, source, unit, range, when it applies).

func settingsAvail(a *App) string {
	if len(a.cfg.entries) == 0 {
		return "needs a connected workspace (the runtime answers the settings)"
	}
	return ""
}

func (a *App) openSettings() {
	a.cfg.form = form.New(a.cfg.entries, form.SettingsGroups())
	a.cfg.status, a.cfg.prompt, a.cfg.origin = "", settingsPrompt{}, "settings"
	a.openDialog(dialogSettings)
}

// formKey routes a key of the settings screens or the developer menu to
// the form; it reports keys it did not use.
func (a *App) formKey(ev *tcell.EventKey) bool {
	f := a.cfg.form
	if editing, _ := f.Editing(); editing {
		switch ev.Key() {
		case tcell.KeyEnter:
			f.Commit()
		case tcell.KeyEscape:
			f.CancelEdit()
		case tcell.KeyBackspace, tcell.KeyBackspace2, tcell.KeyCtrlH:
			f.Backspace()
		case tcell.KeyRune:
			f.Type(string(ev.Rune()))
		}
		return true
	}
	switch ev.Key() {
	case tcell.KeyUp:
		f.Move(-1)
	case tcell.KeyDown:
		f.Move(1)
	case tcell.KeyPgUp:
		f.Move(-10)
	case tcell.KeyPgDn:
		f.Move(10)
	case tcell.KeyHome:
		f.Move(-len(f.Visible()))
	case tcell.KeyEnd:
		f.Move(len(f.Visible()))
	case tcell.KeyTab:
		f.NextGroup(1)
	case tcell.KeyBacktab:
		f.NextGroup(-1)
	case tcell.KeyLeft:
		f.Step(-1)
	case tcell.KeyRight:
		f.Step(1)
	case tcell.KeyEnter:
		f.BeginEdit()
	case tcell.KeyCtrlD:
		f.Reset()
	case tcell.KeyCtrlU:
		f.SetFilter("")
	case tcell.KeyBackspace, tcell.KeyBackspace2, tcell.KeyCtrlH:
		if r := []rune(f.Filter()); len(r) > 0 {
			f.SetFilter(string(r[:len(r)-1]))
		}
	case tcell.KeyRune:
		if ev.Rune() != ' ' { // typing searches the keys
			f.SetFilter(f.Filter() + string(ev.Rune()))
			return true
		}
		if e, ok := f.Current(); ok && e.Control() != form.ControlText && e.Control() != form.ControlStepper {
			f.Step(1)
		}
	default:
		return false
	}
	return true
}

func (a *App) settingsKey(ev *tcell.EventKey) {
	if a.promptKey(ev.Rune(), ev.Key() == tcell.KeyEscape) {
		return
	}
	if a.formKey(ev) {
		return
	}
	f := a.cfg.form
	switch ev.Key() {
	case tcell.KeyEscape:
		a.dialog = dialogNone // staged edits are dropped; applied ones stay applied
		a.cfg.form = nil
	case tcell.KeyCtrlA:
		a.applySettings(false)
	case tcell.KeyCtrlS:
		a.applySettings(true)
	case tcell.KeyCtrlX:
		f.Discard()
		a.settingsStatus("discarded the changes not yet applied", false)
	}
}

// settingsBox is larger than a standard dialog: the screens list keys and
// their details side by side with room to read them.
func settingsBox(l layout) (x, y, w, h int) {
	w = min(110, l.w-4)
	h = min(40, l.h-2)
	return (l.w - w) / 2, (l.h - h) / 2, w, h
}

func (a *App) drawSettings(l layout) {
	x, y, w, h := settingsBox(l)
	a.drawFormBox(x, y, w, h, "Settings", []string{
		" ↑/↓ select · ←/→ change · enter edit · tab screen · ctrl+d default · ctrl+a apply · ctrl+s save · esc close ",
		" ←/→ change · enter edit · tab screen · ctrl+a apply · ctrl+s save · esc close ",
		" tab screen · ctrl+a apply · ctrl+s save · esc "})
}

// drawFormBox draws the open form: title and screen tabs, the rows, the
// selected entry's details, the status and any prompt, and the footer.
func (a *App) drawFormBox(x, y, w, h int, title string, footers []string) {
	f := a.cfg.form
	a.p.clear(x, y, w, h)
	a.frame(x, y, w, h, theme.Accent)
	inner := w - 4
	head := line{bold(title, theme.Accent)}
	if gs := f.Groups(); len(gs) > 1 {
		head = append(head, span("  "+a.p.glyph("‹ ", "< ")+gs[f.Group()]+a.p.glyph(" ›", " >"), theme.Base),
			span("  "+strconv.Itoa(f.Group()+1)+"/"+strconv.Itoa(len(gs))+" · tab next", theme.Muted))
	}
	if q := f.Filter(); q != "" {
		head = append(head, span("  filter: ", theme.Muted), span(safeLine(q), theme.Base))
	} else {
		head = append(head, span("  type to search", theme.Subtle))
	}
	a.p.put(x+2, y+1, inner, head)
	details := a.formDetails(inner)
	rows := h - 4 - len(details)
	vis := f.Visible()
	top := scrollInto(0, f.Selected(), rows)
	if len(vis) == 0 {
		msg := "no settings on this screen"
		if f.Filter() != "" {
			msg = "no key on this screen matches; ctrl+u clears the search"
		}
		a.p.put(x+2, y+2, inner, line{span(msg, theme.Muted)})
	}
	for i := 0; i < rows && top+i < len(vis); i++ {
		a.drawFormRow(x+1, y+2+i, w-2, vis[top+i], top+i == f.Selected())
	}
	for i, d := range details {
		a.p.put(x+2, y+2+rows+i, inner, d)
	}
	a.p.put(x+2, y+h-1, inner, line{span(truncate(fitting(footers, inner), inner, a.p.glyph("…", "...")), theme.Subtle)})
}

// fitting is the longest footer that fits width (the last, shortest one
// otherwise): the apply and save keys must stay visible at 60 columns.
func fitting(footers []string, width int) string {
	for _, f := range footers {
		if cellWidth(f) <= width {
			return f
		}
	}
	return footers[len(footers)-1]
}

// drawFormRow: key left, value right, markers in words (never colour
// alone): locked, edited (applied, unsaved), pending restart, changed.
func (a *App) drawFormRow(x, y, w int, e form.Entry, selected bool) {
	f := a.cfg.form
	keyTok, valTok := theme.Base, theme.Accent
	if e.Locked {
		keyTok, valTok = theme.Subtle, theme.Subtle
	}
	if selected {
		keyTok, valTok = theme.OnSelection, theme.OnSelection
		a.p.fill(x, y, w, ' ', theme.OnSelection)
	}
	mark := "  "
	if selected {
		mark = a.p.glyph("› ", "> ")
	}
	val := f.Shown(e)
	if editing, buf := f.Editing(); editing && selected {
		val = buf + a.p.glyph("▏", "_")
	}
	val = controlText(e, val)
	var tags []string
	switch {
	case e.Locked:
		tags = append(tags, "locked (cli)")
	case f.Staged(e):
		tags = append(tags, "changed")
	}
	if e.Edited {
		tags = append(tags, "unsaved")
	}
	if e.PendingRestart {
		tags = append(tags, "pending restart")
	}
	if f.Error(e.Key) != "" {
		tags = append(tags, "invalid")
	}
	right := val
	if len(tags) > 0 {
		right += " [" + strings.Join(tags, ", ") + "]"
	}
	ell := a.p.glyph("…", "...")
	rw := min(cellWidth(right), w*3/5)
	right = truncate(right, rw, ell)
	a.p.put(x, y, w-rw-2, line{span(truncate(mark+e.Key, w-rw-2, ell), keyTok)})
	a.p.put(x+w-rw-1, y, rw, line{span(right, valTok)})
}

// controlText shows a value as its control: a toggle as on/off, a
// reference as a reference, an empty string as (empty).
func controlText(e form.Entry, v string) string {
	switch {
	case e.Control() == form.ControlToggle && v == "true":
		return "[x] on"
	case e.Control() == form.ControlToggle:
		return "[ ] off"
	case e.Control() == form.ControlSelector:
		return "< " + v + " >"
	case e.Reference() && v != "":
		return "ref: " + safeLine(v)
	case v == "":
		return "(empty)"
	}
	return safeLine(v)
}

// formDetails are the selected entry's facts, its error, the status and
// any prompt, wrapped to width.
func (a *App) formDetails(width int) []line {
	f := a.cfg.form
	var out []line
	add := func(l line) { out = append(out, wrapLine(l, width)...) }
	add(line{span(strings.Repeat(a.p.glyph("─", "-"), width), theme.Separator)})
	if e, ok := f.Current(); ok {
		src := sourceText(e)
		facts := "default " + orEmpty(controlText(e, e.Default)) + " · source " + src
		if e.Unit != "" {
			facts += " · unit " + e.Unit
		}
		add(line{span(e.Key, theme.Accent), span("  "+facts, theme.Muted)})
		if e.Edited {
			add(line{span("applied to this session, not saved: .fluzo has "+orEmpty(controlText(e, e.Saved)), theme.Warning)})
		}
		add(line{span("valid: "+e.Valid+" · "+e.When(), theme.Muted)})
		add(line{span(safeLine(e.Description), theme.Base)})
		if p := f.Error(e.Key); p != "" {
			add(line{span("invalid: ", theme.Error), span(p, theme.Base)})
		}
	}
	prompt := a.cfg.prompt.text
	if a.cfg.prompt.kind == promptCurrentTask {
		prompt = a.currentTaskPrompt()
	}
	for _, p := range prompt {
		add(line{span(p, theme.Warning)})
	}
	if a.cfg.status != "" {
		tok := theme.Success
		if a.cfg.isError {
			tok = theme.Error
		}
		add(line{span(a.cfg.status, tok)})
	}
	return out
}

func sourceText(e form.Entry) string {
	switch e.Source {
	case "cli":
		return "command line (locked)"
	case "file":
		if e.Line > 0 {
			return ".fluzo:" + strconv.Itoa(e.Line)
		}
		return ".fluzo"
	}
	return "default"
}

func orEmpty(s string) string {
	if s == "" {
		return "(empty)"
	}
	return s
}
