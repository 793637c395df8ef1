package tui

import (
	"fmt"
	"strings"

	"github.com/gdamore/tcell/v2"
	"github.com/josecorral/fluzo/lib/tui/notify"
	"github.com/josecorral/fluzo/lib/tui/text"
	"github.com/josecorral/fluzo/lib/tui/theme"
)

// Toasts: the in-app notices of lib/tui/notify drawn in the top-right of
// the conversation (TUI-REFERENCE §3.5). They are presentation only: the
// task, its cards and its result stay where they are, so an expired,
// dropped or dismissed toast loses nothing, and no toast takes focus,
// answers a card or resumes a task. The stack uses only the
// conversation's free rows and is empty while a dialog is open, so it
// never covers the composer, an approval, a dialog, the sidebar or the
// footer.

const (
	toastW    = 48 // the stack's width, or the conversation's when narrower
	toastRows = 4  // top border with label, text, hint, bottom border
	toastStep = toastRows + 1
	toastMinW = 16 // narrower than this nothing useful fits
)

// toasts is the screen's notification state.
type toasts struct {
	q    *notify.Queue
	hits []toastHit // where the last frame drew each toast, for clicks
	desk desktop
}

type toastHit struct {
	id       uint64
	box, btn rect // the whole toast, its dismiss button
}

func newToasts(scr tcell.Screen) toasts {
	q, _ := notify.New(notify.DefaultConfig()) // the defaults are valid
	return toasts{q: q, desk: newDesktop(scr)}
}

// toast delivers one notice; desk names the desktop notification it also
// earns (when enabled and the terminal is known to be unfocused) — only
// on its first delivery, never for a coalesced replay.
func (a *App) toast(key string, sev notify.Severity, msg, hint string, desk deskKind, task string) {
	a.dirty.all = true
	if a.notes.q.Push(a.clock.Now(), key, sev, msg, hint) == notify.Added && desk != deskNone && a.blurred {
		a.notes.desk.queue(desk, task)
	}
}

// expireToasts drops what expired since the last wake, and the approval
// toasts whose card is answered or stale (the card says so itself).
func (a *App) expireToasts() {
	gone := a.notes.q.Expire(a.clock.Now())
	if a.notes.q.RemoveIf(func(n notify.Notice) bool {
		op, ok := strings.CutPrefix(n.Key, "approval:")
		it := a.approvalItem(op)
		return ok && (it == nil || it.approval.state != approvalPending)
	}) || gone {
		a.dirty.all = true
	}
}

// toastArea is where the stack may go in this frame: the conversation's
// free rows — below everything it drew (its items, a pending approval
// card, the phase's status block) — at the right. A
// full view has no free rows and shows no toast: nothing the person
// reads or answers is ever covered, and the conversation never moves
// for a toast.
func (a *App) toastArea(l layout) rect {
	if a.dialog != dialogNone {
		return rect{}
	}
	return a.freeArea(l)
}

// freeArea is toastArea as it is with no dialog open: where the stack
// shows once the palette that runs "dismiss" has closed.
func (a *App) freeArea(l layout) rect {
	c := l.conv
	w := min(toastW, c.w)
	if l.tooSmall || w < toastMinW {
		return rect{}
	}
	top := c.y
	if used := a.rowsTot - a.scroll; used > 0 {
		top += used // items end with their blank separator row
	}
	if top >= c.bottom() {
		return rect{}
	}
	return rect{c.right() - w, top, w, c.bottom() - top}
}

// toastSlots is how many toasts fit in h rows: 4 rows each, one apart.
func toastSlots(h int) int { return (h + 1) / toastStep }

func (a *App) drawToasts(l layout) {
	a.notes.hits = a.notes.hits[:0]
	area := a.toastArea(l)
	slots := toastSlots(area.h)
	vis := a.notes.q.Visible(slots)
	// Bottom-anchored, so the stack stays put while the conversation grows.
	top := area.bottom() - len(vis)*toastStep + 1
	for i, n := range vis {
		y := top + i*toastStep
		var summary string
		if i == len(vis)-1 {
			summary = a.toastSummary(slots)
		}
		a.drawToast(rect{area.x, y, area.w, toastRows}, n, summary)
	}
}

// toastSummary is the stack's bounded aggregate: notices waiting for
// room and notices dropped for it.
func (a *App) toastSummary(slots int) string {
	s := ""
	if p := a.notes.q.Pending(slots); p > 0 {
		s = fmt.Sprintf("+%d more", p)
	}
	if d := a.notes.q.Dropped(); d > 0 {
		if s != "" {
			s += " · "
		}
		if d >= notify.MaxDropped {
			s += fmt.Sprintf("%d+ dropped", notify.MaxDropped)
		} else {
			s += fmt.Sprintf("%d dropped", d)
		}
	}
	return s
}

var toastTokens = map[notify.Severity]theme.Token{
	notify.Info: theme.Accent, notify.Success: theme.Success, notify.Warning: theme.Warning, notify.Error: theme.Error,
}

// drawToast paints one notice: a rounded frame with the severity label
// and a dismiss button on the top border, the text, then the hint and
// (on the last) the stack's summary.
func (a *App) drawToast(r rect, n notify.Notice, summary string) {
	p := a.p
	tok := toastTokens[n.Severity]
	h, v := p.glyph("─", "-"), p.glyph("│", "|")
	inner := r.w - 2
	p.clear(r.x, r.y, r.w, r.h)
	label := " " + n.Severity.Label() + " "
	btn := " x "
	fill := max(inner-1-cellWidth(label)-cellWidth(btn)-1, 0)
	p.put(r.x, r.y, r.w, line{span(p.glyph("╭", "+")+h, tok), bold(label, tok), span(strings.Repeat(h, fill), tok),
		bold(btn, tok), span(h+p.glyph("╮", "+"), tok)})
	ell := p.glyph(text.Ellipsis, text.ASCIIEllipsis)
	body := notify.Line(n, inner-2, ell)
	p.put(r.x, r.y+1, r.w, line{span(v+" ", tok), span(body, theme.Base)})
	p.put(r.right()-1, r.y+1, 1, line{span(v, tok)})
	hint := n.Hint
	if hint != "" {
		hint += " · "
	}
	hint += "ctrl+x dismisses"
	room := inner - 2
	if summary != "" {
		room -= cellWidth(summary) + 1
	}
	p.put(r.x, r.y+2, r.w, line{span(v+" ", tok), span(truncate(hint, max(room, 0), ell), theme.Muted)})
	if summary != "" && room >= 0 {
		p.put(r.right()-2-cellWidth(summary), r.y+2, cellWidth(summary), line{span(summary, theme.Subtle)})
	}
	p.put(r.right()-1, r.y+2, 1, line{span(v, tok)})
	p.put(r.x, r.y+3, r.w, line{span(p.glyph("╰", "+")+strings.Repeat(h, inner)+p.glyph("╯", "+"), tok)})
	bx := r.right() - 1 - cellWidth(h) - cellWidth(btn)
	a.notes.hits = append(a.notes.hits, toastHit{id: n.ID, box: r, btn: rect{bx, r.y, cellWidth(btn), 1}})
}

// toastClick handles a left press on a toast: its dismiss button closes
// that notice only; the rest of a toast swallows the click (what lies
// under it is covered, so it must not be selected blindly). It reports
// whether the click was on a toast.
func (a *App) toastClick(x, y int) bool {
	for _, h := range a.notes.hits {
		if inside(h.btn, x, y) {
			a.notes.q.Dismiss(h.id)
			return true
		}
		if inside(h.box, x, y) {
			return true
		}
	}
	return false
}

// dismissToast closes the oldest toast on screen (ctrl+x; the stack shows
// oldest first). A notice still waiting for room — at the minimum size or
// beside a full view — is never dismissed unseen: it shows when room
// appears, or expires. It changes nothing but the stack.
func (a *App) dismissToast() {
	if first := a.notes.q.Visible(a.toastRoom()); len(first) > 0 {
		a.notes.q.Dismiss(first[0].ID)
	}
}

// toastRoom is how many toasts the screen shows with no dialog open.
func (a *App) toastRoom() int { return toastSlots(a.freeArea(a.layout()).h) }

func toastAvail(a *App) string {
	switch {
	case a.notes.q.Len() == 0:
		return "no notification to dismiss"
	case a.toastRoom() == 0:
		return "none on screen: notices wait for room (a larger window or fewer rows in view)"
	}
	return ""
}
