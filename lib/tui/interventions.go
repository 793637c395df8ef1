package tui

import (
	"fmt"

	"github.com/gdamore/tcell/v2"
	"github.com/josecorral/fluzo/lib/port"
	"github.com/josecorral/fluzo/lib/tui/theme"
)

// The intervention queue of a task, in its detail view: each message
// queued for it with its state; a queued one can be edited (in the
// composer) or withdrawn until the agent receives it. The runtime decides:
// an edit's text replaces the shown one only once accepted, and a refusal
// (already delivered) is shown and leaves the queue as the runtime has it.

// interventionsOf are the task's queued messages, oldest first.
func (a *App) interventionsOf(task string) []*item {
	var out []*item
	for _, it := range a.items {
		if it.kind == itemIntervention && task != "" && it.interv.task == task {
			out = append(out, it)
		}
	}
	return out
}

func (a *App) interventionItem(id string) *item {
	for _, it := range a.items {
		if it.kind == itemIntervention && id != "" && it.interv.id == id {
			return it
		}
	}
	return nil
}

// interventionLines are the detail's queue rows; sel marks the selected.
func (a *App) interventionLines(task string) []line {
	queue := a.interventionsOf(task)
	if len(queue) == 0 {
		return []line{field("interventions", "none queued")}
	}
	out := []line{field("interventions", fmt.Sprintf("%d · ↑/↓ select · e edit · x withdraw (until delivered)", len(queue)))}
	for i, it := range queue {
		iv := it.interv
		state := iv.state
		if iv.editing {
			state = "editing in the composer"
		}
		mark, tok := "  ", theme.Base
		if i == a.tv.interv {
			mark, tok = "> ", theme.Highlight
		}
		out = append(out, line{span(mark, theme.Accent), span(fmt.Sprintf("%d. %-14s ", i+1, state), theme.Muted), span("“"+firstLine(iv.text)+"”", tok)})
	}
	return out
}

func firstLine(s string) string {
	for i, r := range s {
		if r == '\n' {
			return s[:i] + " …"
		}
	}
	return s
}

// interventionKey handles the queue's keys in a task's detail; false:
// not a queue key.
func (a *App) interventionKey(task string, ev *tcell.EventKey) bool {
	queue := a.interventionsOf(task)
	switch {
	case ev.Key() == tcell.KeyUp:
		a.tv.interv = max(a.tv.interv-1, 0)
	case ev.Key() == tcell.KeyDown:
		a.tv.interv = min(a.tv.interv+1, max(len(queue)-1, 0))
	case ev.Key() == tcell.KeyDelete || ev.Key() == tcell.KeyRune && ev.Rune() == 'x':
		if it := selectedOf(queue, a.tv.interv); it != nil {
			a.withdrawIntervention(it)
		}
	case ev.Key() == tcell.KeyRune && ev.Rune() == 'e':
		if it := selectedOf(queue, a.tv.interv); it != nil {
			a.editFromDetail(it)
		}
	default:
		return false
	}
	return true
}

func selectedOf(queue []*item, i int) *item {
	if i >= 0 && i < len(queue) {
		return queue[i]
	}
	return nil
}

// changeable says why an intervention cannot change now ("" if it can).
func changeable(iv *intervention) string {
	switch {
	case iv.id == "":
		return "it is still being queued"
	case iv.changeReq != "":
		return "a change to it is in flight"
	case iv.state != "queued":
		return "it is " + iv.state
	}
	return ""
}

func (a *App) withdrawIntervention(it *item) {
	if why := changeable(it.interv); why != "" {
		a.setNotice("cannot withdraw the message: " + why)
		return
	}
	it.interv.changeReq, it.interv.change = a.send(port.WithdrawIntervention(it.interv.id)), "withdraw"
	it.interv.state = "withdrawing"
	it.touch()
}

// editFromDetail loads the message into the composer for editing and
// closes the views, so the composer (which shows what it edits) has focus.
func (a *App) editFromDetail(it *item) {
	if why := changeable(it.interv); why != "" {
		a.setNotice("cannot edit the message: " + why)
		return
	}
	if !a.comp.empty() && a.comp.editing == "" {
		a.setNotice("the composer holds a draft: send or clear it before editing a queued message")
		return
	}
	a.stopEditing()
	a.comp.text, a.comp.cursor, a.comp.editing = it.interv.text, len(it.interv.text), it.interv.id
	it.interv.editing = true
	it.touch()
	a.dialog, a.focus = dialogNone, focusComposer
}

// saveEdit sends the composer's text as the new text of a queued message.
func (a *App) saveEdit(id, text string) {
	it := a.interventionItem(id)
	if it == nil {
		return
	}
	it.interv.editing = false
	it.interv.pendingText = safeText(text)
	it.interv.changeReq, it.interv.change = a.send(port.EditIntervention(id, text)), "edit"
	it.touch()
}

// interventionChanged settles the edit or withdrawal request re: accepted
// applies it; refused leaves the message as it was, and a refused edit's
// text returns to an empty composer so nothing typed is lost.
func (a *App) interventionChanged(re string, accepted bool) {
	for _, it := range a.items {
		iv := it.interv
		if it.kind != itemIntervention || re == "" || iv.changeReq != re {
			continue
		}
		change := iv.change
		iv.changeReq, iv.change = "", ""
		switch {
		case accepted && change == "withdraw":
			iv.state = "withdrawn"
		case accepted:
			iv.text = iv.pendingText
		case change == "withdraw":
			if iv.state == "withdrawing" { // else the delivery event already said what it is
				iv.state = "queued"
			}
			a.setNotice("withdraw refused: the agent already has the message")
		default:
			if a.comp.empty() && a.comp.editing == "" {
				a.comp.text, a.comp.cursor = iv.pendingText, len(iv.pendingText)
			}
			a.setNotice("edit refused: the agent already has the message · your text is back in the composer")
		}
		iv.pendingText = ""
		it.touch()
	}
}
