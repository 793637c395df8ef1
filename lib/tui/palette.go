package tui

import (
	"sort"
	"strings"
	"unicode"

	"github.com/gdamore/tcell/v2"
	"github.com/josecorral/fluzo/lib/tui/theme"
)

// The command palette (Ctrl+P, or "/" in an empty composer) searches the
// runnable registry entries. Every entry shows its key, so the palette
// also teaches the keys; an entry that cannot run now stays listed, dimmed,
// with the reason, rather than vanishing without a word.

// maxQuery bounds the palette's search text (TUI-REFERENCE §4.2 rule 8).
const maxQuery = 64

type palette struct {
	query string
	sel   int
	top   int // first listed match in view
}

func (a *App) openPalette() {
	a.pal = palette{}
	a.openDialog(dialogPalette)
}

// paletteMatches are the runnable entries matching the query, best first
// (registry order breaks ties, so an empty query lists them in help order).
func (a *App) paletteMatches() []*action {
	type scored struct {
		act   *action
		score int
	}
	var list []scored
	for i := range registry {
		act := &registry[i]
		if act.run == nil {
			continue
		}
		if s, ok := fuzzyScore(a.pal.query, act.title+" "+act.keys); ok {
			list = append(list, scored{act, s})
		}
	}
	sort.SliceStable(list, func(i, j int) bool { return list[i].score > list[j].score })
	out := make([]*action, len(list))
	for i, s := range list {
		out[i] = s.act
	}
	return out
}

// fuzzyScore matches query as a case-insensitive subsequence of s. Letters
// that follow each other in s, or start one of its words, score more, so
// "fs" ranks "Force stop" above "File search".
func fuzzyScore(query, s string) (int, bool) {
	q := []rune(strings.ToLower(query))
	if len(q) == 0 {
		return 0, true
	}
	score, qi, prev := 0, 0, -2
	runes := []rune(strings.ToLower(s))
	for i, r := range runes {
		if qi == len(q) {
			break
		}
		if r != q[qi] {
			continue
		}
		score++
		if i == prev+1 {
			score += 3
		}
		if i == 0 || !unicode.IsLetter(runes[i-1]) {
			score += 5
		}
		prev = i
		qi++
	}
	return score, qi == len(q)
}

func (a *App) paletteKey(ev *tcell.EventKey) {
	matches := a.paletteMatches()
	switch ev.Key() {
	case tcell.KeyEscape, tcell.KeyCtrlP:
		a.dialog = dialogNone
	case tcell.KeyUp, tcell.KeyBacktab:
		a.pal.sel = max(a.pal.sel-1, 0)
	case tcell.KeyDown, tcell.KeyTab:
		a.pal.sel = min(a.pal.sel+1, max(len(matches)-1, 0))
	case tcell.KeyBackspace, tcell.KeyBackspace2, tcell.KeyCtrlH:
		if r := []rune(a.pal.query); len(r) > 0 {
			a.setQuery(string(r[:len(r)-1]))
		}
	case tcell.KeyCtrlU:
		a.setQuery("")
	case tcell.KeyEnter:
		if a.pal.sel < len(matches) {
			a.runFromPalette(matches[a.pal.sel])
		}
	case tcell.KeyRune:
		if len(a.pal.query)+len(string(ev.Rune())) <= maxQuery {
			a.setQuery(a.pal.query + string(ev.Rune()))
		}
	}
}

func (a *App) setQuery(q string) {
	a.pal.query, a.pal.sel, a.pal.top = q, 0, 0
}

// runFromPalette closes the palette and runs the entry; an entry that
// cannot run keeps the palette open (its reason is already on its row).
func (a *App) runFromPalette(act *action) {
	if act.avail(a) != "" {
		return
	}
	a.dialog = dialogNone
	act.run(a)
}

// overlayBox is the standard dialog's frame: at most 70x20, two cells of
// screen margin, centred (TUI-REFERENCE §3.6).
func overlayBox(l layout, wantH int) (x, y, w, h int) {
	w = min(70, l.w-4)
	h = min(wantH, 20, l.h-2)
	return (l.w - w) / 2, (l.h - h) / 2, w, h
}

func (a *App) drawPalette(l layout) {
	x, y, w, h := overlayBox(l, 20)
	a.p.clear(x, y, w, h)
	a.frame(x, y, w, h, theme.Accent)
	a.p.put(x+2, y+1, w-4, line{bold("Commands", theme.Accent)})
	search := line{span("> ", theme.Accent), span(safeLine(a.pal.query), theme.Base)}
	if a.pal.query == "" {
		search = line{span("> ", theme.Accent), span("type to search every action", theme.Muted)}
	}
	a.p.put(x+2, y+2, w-4, search)
	matches := a.paletteMatches()
	rows := h - 5 // the last inner row says why the selected entry cannot run
	a.pal.top = scrollInto(a.pal.top, a.pal.sel, rows)
	if len(matches) == 0 {
		a.p.put(x+2, y+3, w-4, line{span("no action matches", theme.Muted)})
	}
	for i := 0; i < rows && a.pal.top+i < len(matches); i++ {
		idx := a.pal.top + i
		a.drawPaletteRow(x+1, y+3+i, w-2, matches[idx], idx == a.pal.sel)
	}
	if a.pal.sel < len(matches) {
		if why := matches[a.pal.sel].avail(a); why != "" {
			a.p.put(x+2, y+h-2, w-4, line{span("unavailable: ", theme.Warning), span(why, theme.Base)})
		}
	}
	a.putHint(x+2, y+h-1, w-4, " ↑/↓ select · enter run · esc close ")
}

// drawPaletteRow: title left, key right; an unavailable entry is dimmed
// and says why (never colour alone: the reason is text).
func (a *App) drawPaletteRow(x, y, w int, act *action, selected bool) {
	titleTok, keyTok := theme.Base, theme.Muted
	why := act.avail(a)
	if why != "" {
		titleTok = theme.Subtle
	}
	if selected {
		titleTok, keyTok = theme.OnSelection, theme.OnSelection
		a.p.fill(x, y, w, ' ', theme.OnSelection)
	}
	mark := "  "
	if selected {
		mark = a.p.glyph("› ", "> ")
	}
	keyW := cellWidth(act.keys)
	title := mark + act.title
	if why != "" {
		title += a.p.glyph(" — ", " - ") + why
	}
	a.p.put(x, y, w-keyW-2, line{span(truncate(title, w-keyW-2, a.p.glyph("…", "...")), titleTok)})
	a.p.put(x+w-keyW-1, y, keyW, line{span(act.keys, keyTok)})
}

// scrollInto keeps sel inside a view of rows lines starting at top.
func scrollInto(top, sel, rows int) int {
	if rows <= 0 {
		return 0
	}
	if sel < top {
		return sel
	}
	if sel >= top+rows {
		return sel - rows + 1
	}
	return top
}
