package tui

import (
	"fmt"

	"github.com/josecorral/fluzo/lib/tui/theme"
)

// drawConversation lays the items out at the conversation's text width
// (cached per item), places the view and draws the scrollbar. Following
// views stick to the bottom; paused views keep their absolute top row.
func (a *App) drawConversation(l layout) {
	c := l.conv
	pre := a.historyRows()
	ix := a.index(l.textW)
	body := len(pre) + ix.total() // rows before the status block
	status := a.statusRows(l.textW)
	total := body + len(status)
	wave := -1
	if a.phase == phaseRunning && len(status) > 0 {
		wave = body // the wave row: identity draws it
	}
	a.rowsTot = total
	maxTop := max(total-c.h, 0)
	if a.follow {
		a.scroll = maxTop
		a.unread = 0
	} else if a.scroll > maxTop {
		a.scroll = maxTop
	}
	a.waveRow = -1
	if wave >= a.scroll && wave < a.scroll+c.h {
		a.waveRow = c.y + wave - a.scroll
	}
	cur := -1 // the item of the row being drawn
	for r := 0; r < c.h && a.scroll+r < total; r++ {
		g := a.scroll + r
		if g == wave {
			continue
		}
		var row line
		switch {
		case g < len(pre):
			row = pre[g]
		case g < body:
			k := g - len(pre)
			if cur < 0 {
				cur = ix.itemAt(k)
			}
			for ix.offs[cur+1] <= k {
				cur++
			}
			if r == 0 || k == ix.offs[cur] {
				a.stats.itemsDrawn++
			}
			row = ix.items[cur].cache.lines[k-ix.offs[cur]]
			if a.focus == focusChat && cur == a.selected && len(row) > 0 {
				row = append(line{span(a.p.glyph("▌ ", "> "), theme.Highlight)}, row[1:]...)
			}
		default:
			row = status[g-body]
		}
		a.p.put(c.x, c.y+r, l.textW, row)
	}
	a.drawScrollbar(l, total)
}

func (a *App) drawScrollbar(l layout, total int) {
	c := l.conv
	if total <= c.h {
		return
	}
	thumb := clamp(c.h*c.h/total, 1, c.h)
	top := (c.h - thumb) * a.scroll / (total - c.h)
	for r := 0; r < c.h; r++ {
		g, tok := a.p.glyph("│", "|"), theme.Separator
		if r >= top && r < top+thumb {
			g, tok = a.p.glyph("┃", "#"), theme.Highlight
		}
		a.p.put(l.scrollbar, c.y+r, 1, line{span(g, tok)})
	}
}

// scrollBy moves the view; any move up pauses following, reaching the
// bottom does not resume it (End does: following is explicit).
func (a *App) scrollBy(d int) {
	h := a.layout().conv.h
	maxTop := a.rowsTot - h
	if maxTop < 0 {
		maxTop = 0
	}
	if d < 0 {
		a.follow = false
	}
	a.scroll = clamp(a.scroll+d, 0, maxTop)
}

func (a *App) scrollTo(top int) {
	if top == 0 && a.scroll == 0 {
		a.loadOlder() // at the top already: page older history from the port
	}
	a.follow = false
	a.scroll = top
}

func (a *App) followNow() {
	a.follow, a.unread = true, 0
}

// statusRows is the phase's designed block below the conversation: what
// is happening, and what the person can do about it.
func (a *App) statusRows(width int) []line {
	g := span("  ", theme.Base)
	row := func(parts ...any) line {
		l := line{g}
		for i := 0; i+1 < len(parts); i += 2 {
			l = append(l, span(parts[i].(string), parts[i+1].(theme.Token)))
		}
		return l
	}
	elapsed := ""
	if a.task.startedAt > 0 || a.phase.moving() {
		elapsed = " · " + fmtElapsed(a.clock.Now()-a.task.startedAt)
	}
	switch a.phase {
	case phaseLoading:
		return []line{row("Connecting to fluzo-agent serve…", theme.Muted)}
	case phaseEmpty:
		if len(a.items) > 0 {
			return nil
		}
		return []line{
			row("Ready. Describe a task below and press Enter.", theme.Base), {},
			row("The task runs in "+shortPath(a.info.root, 4)+"; its test command must pass before it counts as done.", theme.Subtle),
			row("shift+enter or ctrl+j adds a line · tab switches to the conversation · ctrl+y yolo", theme.Subtle),
		}
	case phaseRunning:
		return []line{{}} // the message wave (identity.DrawWave) with its elapsed time
	case phaseWaiting:
		return []line{row("Waiting for your approval"+elapsed, theme.Warning), row("tab focuses the card · a approve once · t approve for this task · d deny", theme.Subtle)}
	case phaseStopping:
		return []line{row("Stopping"+elapsed, theme.Warning), row("the task is cancelling gracefully · ctrl+c again offers a force stop", theme.Subtle)}
	case phaseBusy:
		return a.busyRows(row)
	}
	return nil
}

func (a *App) busyRows(row func(...any) line) []line {
	o := a.owner
	since, cmd := "unknown", "unknown"
	if !o.Since.IsZero() {
		since = o.Since.Format("2006-01-02 15:04:05 MST")
	}
	if o.Command != "" {
		cmd = safeLine(o.Command)
	}
	pid := "unknown"
	if o.PID > 0 {
		pid = fmt.Sprint(o.PID)
	}
	return []line{
		row("Another process owns this workspace", theme.Error), {},
		row("pid      ", theme.Muted, pid, theme.Base),
		row("command  ", theme.Muted, cmd, theme.Base),
		row("since    ", theme.Muted, since, theme.Base), {},
		row("This view is read-only: nothing can start here until it finishes.", theme.Subtle),
		row("h shows its stored history here, read-only (also: fluzo history list · fluzo replay TASK)", theme.Subtle),
	}
}

func fmtElapsed(d interface{ Seconds() float64 }) string {
	s := int(d.Seconds())
	if s < 60 {
		return fmt.Sprintf("%ds", s)
	}
	return fmt.Sprintf("%dm%02ds", s/60, s%60)
}

func (a *App) drawComposer(l layout) {
	c := l.composer
	if a.notice != "" {
		a.p.put(c.x, c.y, c.w, line{span(truncate(a.notice, c.w, "…"), theme.Warning)})
	} else if a.comp.editing != "" {
		a.p.put(c.x, c.y, c.w, line{span("editing a queued message · enter saves · esc stops editing", theme.Muted)})
	} else if q := a.queuedCount(); q > 0 {
		a.p.put(c.x, c.y, c.w, line{span(fmt.Sprintf("%d queued message(s) wait for the next safe point · up edits the newest", q), theme.Muted)})
	}
	rows, cr, cc := a.comp.visual(c.w - 4)
	textRows := c.h - 2
	first := 0
	if cr >= textRows {
		first = cr - textRows + 1
	}
	mode := span("", theme.Base)
	if a.yolo {
		mode = bold(" YOLO ", theme.Warning)
	}
	for r := 0; r < textRows; r++ {
		prompt := span("::: ", theme.Muted)
		if a.focus == focusComposer && r == 0 {
			prompt = span("  > ", theme.Accent)
		}
		a.p.put(c.x, c.y+1+r, 4, line{prompt})
		if first+r < len(rows) {
			a.p.put(c.x+4, c.y+1+r, c.w-4, line{span(rows[first+r], theme.Base)})
		}
	}
	if a.comp.text == "" {
		ph := "Ask anything…"
		if a.taskActive() {
			ph = "Type to queue a message for the running task…"
		}
		a.p.put(c.x+4, c.y+1, c.w-4, line{span(ph, theme.Muted)})
	}
	a.drawComposerTarget(c)
	if a.yolo {
		a.p.put(c.right()-6, c.y+c.h-1, 6, line{mode})
	}
	if a.focus == focusComposer && a.dialog == dialogNone {
		a.scr.ShowCursor(c.x+4+cc, c.y+1+cr-first)
	} else {
		a.scr.HideCursor()
	}
}

func (a *App) queuedCount() int {
	n := 0
	for _, it := range a.items {
		if it.kind == itemIntervention && (it.interv.state == "queued" || it.interv.state == "sending") {
			n++
		}
	}
	return n
}
