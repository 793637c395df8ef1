package tui

import (
	"fmt"
	"strings"

	"github.com/josecorral/fluzo/lib/tui/setup"
	"github.com/josecorral/fluzo/lib/tui/theme"
)

// The setup screens share the UI's minimum size (TUI-REFERENCE §4.1).
const (
	setupMinW, setupMinH = 60, 16
	setupMaxW            = 100
	setupLabelW          = 16
)

// draw repaints the whole flow screen and shows it once.
func (sv *setupView) draw() {
	w, h := sv.scr.Size()
	sv.scr.Fill(' ', sv.p.style(theme.Base, 0))
	sv.scr.HideCursor()
	if w < setupMinW || h < setupMinH {
		msg := []string{"Resize required", fmt.Sprintf("minimum %dx%d, now %dx%d", setupMinW, setupMinH, w, h), "ctrl+c quits"}
		for i, m := range msg {
			sv.p.put(0, i, w, line{span(m, theme.Base)})
		}
		sv.scr.Show()
		return
	}
	v := sv.flow.View()
	pw := min(w-2, setupMaxW)
	x := (w - pw) / 2
	sv.drawHeader(x, pw, v)
	bodyTop, bodyBottom := 2, h-3 // the last rows: status or prompt, then keys
	body, focusAt, cursor := sv.body(v, pw)
	rows := bodyBottom - bodyTop
	first := v.Scroll
	if v.Fields != nil {
		first = scrollToShow(focusAt, len(body), rows)
	}
	first = max(0, min(first, len(body)-rows))
	for i := 0; i < rows && first+i < len(body); i++ {
		sv.p.put(x, bodyTop+i, pw, body[first+i])
		if cursor.row == first+i && cursor.ok {
			sv.scr.ShowCursor(x+cursor.col, bodyTop+i)
		}
	}
	if first > 0 {
		sv.p.put(x+pw-1, bodyTop, 1, line{span(sv.p.glyph("↑", "^"), theme.Muted)})
	}
	if first+rows < len(body) {
		sv.p.put(x+pw-1, bodyBottom-1, 1, line{span(sv.p.glyph("↓", "v"), theme.Muted)})
	}
	sv.drawStatus(x, h-2, pw, v)
	sv.drawKeys(x, h-1, pw, v.Keys)
	// A new screen, or a new status, is painted whole rather than as a
	// difference from the last: each is read as a page, and a terminal
	// that dropped part of an update is repaired at the next one.
	if shown := v.Title + "\x00" + v.Status + "\x00" + v.Error; shown != sv.shown {
		sv.shown = shown
		sv.scr.Sync()
		return
	}
	sv.scr.Show()
}

// scrollToShow is the first row that keeps row visible, with a little
// context above it.
func scrollToShow(row, total, rows int) int {
	if row < 0 || total <= rows {
		return 0
	}
	return max(0, min(row-2, total-rows))
}

func (sv *setupView) drawHeader(x, w int, v setup.View) {
	title := line{bold("FLUZO", theme.Accent), span("  setup", theme.Muted)}
	if v.Count > 0 {
		title = append(title, span(fmt.Sprintf("  step %d of %d", v.Index, v.Count), theme.Muted))
	}
	title = append(title, span("  "+sv.p.glyph("·", ".")+"  ", theme.Muted), bold(v.Title, theme.Base))
	sv.p.put(x, 0, w, title)
	sv.p.fill(x, 1, w, []rune(sv.p.glyph("─", "-"))[0], theme.Separator)
}

func (sv *setupView) drawStatus(x, y, w int, v setup.View) {
	switch {
	case v.Error != "":
		sv.p.put(x, y, w, line{span(sv.p.glyph("✗ ", "x ")+safeLine(v.Error), theme.Error)})
	case v.Prompt != "":
		sv.p.put(x, y, w, line{bold(v.Prompt, theme.Accent)})
	case v.Status != "":
		sv.p.put(x, y, w, line{span(safeLine(v.Status), theme.Warning)})
	}
}

func (sv *setupView) drawKeys(x, y, w int, keys []setup.KeyHint) {
	var l line
	for i, k := range keys {
		if i > 0 {
			l = append(l, span(" "+sv.p.glyph("·", ".")+" ", theme.Separator))
		}
		l = append(l, span(k.Key, theme.Accent), span(" "+k.Action, theme.Subtle))
	}
	sv.p.put(x, y, w, l)
}

type cursorAt struct {
	row, col int
	ok       bool
}

// body lays out the step's notes, fields and lines as rows of width w;
// it returns the row of the focused field and where its cursor goes.
func (sv *setupView) body(v setup.View, w int) ([]line, int, cursorAt) {
	var rows []line
	add := func(s string, tok theme.Token, indent int) {
		pad, hang := strings.Repeat(" ", indent), hangingIndent(s)
		for i, l := range wrapLine(line{span(safeText(s), tok)}, w-indent-hang) {
			if i > 0 {
				l = append(line{span(strings.Repeat(" ", hang), tok)}, l...)
			}
			rows = append(rows, append(line{span(pad, tok)}, l...))
		}
	}
	for _, n := range v.Notes {
		add(n, theme.Muted, 0)
	}
	if len(v.Notes) > 0 {
		rows = append(rows, line{})
	}
	focusAt, cur := -1, cursorAt{}
	for _, f := range v.Fields {
		if f.Focused {
			focusAt = len(rows)
		}
		row, col := sv.fieldRow(f, w)
		if f.Focused && !f.Choice && !f.Masked {
			cur = cursorAt{row: len(rows), col: col, ok: true}
		}
		rows = append(rows, row)
		if f.Error != "" {
			add(sv.p.glyph("✗ ", "x ")+f.Error, theme.Error, setupLabelW+2)
		}
		if f.Focused {
			add(f.Key+" "+sv.p.glyph("·", ".")+" "+f.Meta, theme.Subtle, setupLabelW+2)
			add(f.Help, theme.Subtle, setupLabelW+2)
		}
	}
	if len(v.Fields) > 0 && len(v.Lines) > 0 {
		rows = append(rows, line{})
	}
	for _, l := range v.Lines {
		tok := theme.Base
		if strings.HasPrefix(l, "WARNING:") {
			tok = theme.Warning
		}
		add(l, tok, 0)
	}
	return rows, focusAt, cur
}

// hangingIndent is where a wrapped line's continuation starts: under
// the text after a "Label:   " column, else under the line's own indent
// (two more for a short one, so a wrapped entry stands out; none for a
// paragraph).
func hangingIndent(s string) int {
	n := len(s) - len(strings.TrimLeft(s, " "))
	if i := strings.Index(s, ":  "); i > 0 && i < 20 {
		j := i + 1
		for j < len(s) && s[j] == ' ' {
			j++
		}
		return j
	}
	switch {
	case n == 0:
		return 0
	case n >= 8:
		return n
	}
	return n + 2
}

// fieldRow is "› Label   value" with the value in the input style; it
// returns the row and the column just past the value (the cursor).
func (sv *setupView) fieldRow(f setup.FieldView, w int) (line, int) {
	marker, labelTok := "  ", theme.Muted
	if f.Focused {
		marker, labelTok = sv.p.glyph("› ", "> "), theme.Accent
	}
	label := truncate(f.Label, setupLabelW-1, sv.p.glyph("…", "~"))
	label += strings.Repeat(" ", setupLabelW-cellWidth(label))
	room := w - setupLabelW - 2 - 4
	value := truncate(safeLine(f.Value), room, sv.p.glyph("…", "~"))
	valTok := theme.Base
	switch {
	case f.Masked:
		valTok = theme.Warning
	case f.Focused:
		valTok = theme.Highlight
	}
	row := line{span(marker, theme.Accent), span(label, labelTok)}
	col := 2 + setupLabelW
	if f.Choice && f.Focused {
		row = append(row, span(sv.p.glyph("◂ ", "< "), theme.Accent), bold(value, valTok), span(sv.p.glyph(" ▸", " >"), theme.Accent))
		return row, col + 2 + cellWidth(value)
	}
	if f.Focused {
		pad := max(0, min(room, 40)-cellWidth(value))
		row = append(row, span(value+strings.Repeat(" ", pad), valTok))
		return row, col + cellWidth(value)
	}
	return append(row, span(value, valTok)), col + cellWidth(value)
}
