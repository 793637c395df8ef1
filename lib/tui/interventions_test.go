package tui

import (
	"fmt"

	"github.com/josecorral/fluzo/lib/port"
	"testing"

	"github.com/gdamore/tcell/v2"
)

// queuedTwo runs a task and queues two messages for it, both acked.
func queuedTwo(h *harness) {
	running(h)
	h.records(`{"v":1,"type":"ack","re":"3","data":{"state":"starting"}}`)
	h.app.task.id = "tsk_1"
	h.clock.Advance(enterDebounce)
	h.keys(typed("please wait")...)
	h.keys(key(tcell.KeyEnter))
	h.ack(`{"intervention":"msg_1","state":"queued"}`)
	h.clock.Advance(enterDebounce)
	h.keys(typed("use the other crate")...)
	h.keys(key(tcell.KeyEnter))
	h.ack(`{"intervention":"msg_2","state":"queued"}`)
}

func TestComposerShowsWhereInputGoes(t *testing.T) {
	h := newHarness(t, 120, 40, Options{FPS: 0})
	h.keys()
	h.mustShow("→ new task, sent when the runtime answers")
	h.connect()
	h.mustShow("→ new task")
	h.keys(typed("fix the test")...)
	h.keys(key(tcell.KeyEnter))
	h.mustShow("→ the starting task (running) as an intervention")
	h.ack(`{"state":"starting"}`)
	h.records(ev(1, "session.created", "", `{"title":"fix the test"}`), ev(2, "task.created", "", `{"request":"fix the test"}`), ev(3, "task.state", "", `{"from":"ready","to":"running"}`))
	h.mustShow("→ task tsk_1 (running) as an intervention")
	h.records(ev(4, "permission.requested", "op_1", `{"tool":"exec","args":{"argv":["cargo","test"]}}`))
	h.mustShow("→ task tsk_1 (waiting for approval) as an intervention")
	h.clock.Advance(enterDebounce)
	h.keys(typed("hold on")...)
	h.keys(key(tcell.KeyEnter))
	h.ack(`{"intervention":"msg_1","state":"queued"}`)
	h.keys(key(tcell.KeyUp))
	h.mustShow("→ edits queued message msg_1 of task tsk_1")
	h.keys(key(tcell.KeyEscape))
	h.records(`{"v":1,"type":"result","status":"completed","task":"tsk_1"}`)
	h.mustShow("→ new task")
	b := newHarness(t, 120, 40, Options{FPS: 0})
	b.app.phase, b.app.owner = phaseBusy, &port.Owner{}
	b.app.dirty.all = true
	b.keys()
	b.mustShow("→ nowhere: the workspace is read-only here")
}

// The detail's queue withdraws a queued message (the runtime confirms)
// and edits one in the composer; an edit the runtime refuses (already
// delivered) leaves the message as delivered and gives the text back.
func TestInterventionEditAndWithdrawRoundTrip(t *testing.T) {
	h := newHarness(t, 120, 40, Options{FPS: 0})
	queuedTwo(h)
	openTasksView(h)
	h.keys(key(tcell.KeyEnter))
	h.mustShow("1. queued")
	h.mustShow("“use the other crate”")
	h.keys(runeKey('x'))
	if got := h.port.last("withdraw_intervention"); got == nil || got["intervention"] != "msg_1" {
		t.Fatalf("x withdraws the selected message: %v", h.port.cmds())
	}
	h.mustShow("withdrawing")
	h.ack(`{"intervention":"msg_1","state":"withdrawn"}`)
	h.mustShow("1. withdrawn")
	h.keys(runeKey('x'))
	if n := countOf(h.port.cmds(), "withdraw_intervention"); n != 1 {
		t.Fatalf("a withdrawn message was withdrawn again (%d requests)", n)
	}
	h.keys(key(tcell.KeyDown), runeKey('e'))
	if h.app.dialog != dialogNone || h.app.comp.editing != "msg_2" || h.app.comp.text != "use the other crate" {
		t.Fatalf("e loads the message into the composer: dialog %v editing %q text %q", h.app.dialog, h.app.comp.editing, h.app.comp.text)
	}
	h.mustShow("→ edits queued message msg_2 of task tsk_1")
	h.keys(typed(", please")...)
	h.clock.Advance(enterDebounce)
	h.keys(key(tcell.KeyEnter))
	if got := h.port.last("edit_intervention"); got == nil || got["text"] != "use the other crate, please" {
		t.Fatalf("enter saves the edit: %v", got)
	}
	// The agent took the message before the edit arrived: the runtime says
	// delivered, then refuses the edit.
	h.records(ev(5, "intervention", "", `{"id":"msg_2","state":"delivered","bytes":19}`),
		`{"v":1,"type":"error","re":"`+fmt.Sprint(h.port.n)+`","error":{"code":"invalid_request","message":"intervention msg_2 was already delivered to the agent"}}`)
	if it := h.app.interventionItem("msg_2"); it.interv.text != "use the other crate" || it.interv.state != "delivered" {
		t.Fatalf("a refused edit changed the message: %+v", it.interv)
	}
	if h.app.comp.text != "use the other crate, please" || h.app.comp.editing != "" {
		t.Fatalf("the refused edit's text returns as a new draft: %q editing %q", h.app.comp.text, h.app.comp.editing)
	}
	h.mustShow("edit refused: the agent already has the message")
}

// A withdrawal the runtime refuses leaves the message as the runtime has
// it: delivered, not queued.
func TestInterventionWithdrawRefusedAfterDelivery(t *testing.T) {
	h := newHarness(t, 120, 40, Options{FPS: 0})
	queuedTwo(h)
	openTasksView(h)
	h.keys(key(tcell.KeyEnter), runeKey('x'))
	h.records(ev(5, "intervention", "", `{"id":"msg_1","state":"delivered","bytes":11}`),
		`{"v":1,"type":"error","re":"`+fmt.Sprint(h.port.n)+`","error":{"code":"invalid_request","message":"intervention msg_1 was already delivered to the agent"}}`)
	if it := h.app.interventionItem("msg_1"); it.interv.state != "delivered" {
		t.Fatalf("after a refused withdrawal: %+v", it.interv)
	}
	h.mustShow("withdraw refused")
	h.keys(runeKey('x'))
	if n := countOf(h.port.cmds(), "withdraw_intervention"); n != 1 {
		t.Fatalf("a delivered message can be withdrawn again (%d requests)", n)
	}
}

func countOf(list []string, s string) int {
	n := 0
	for _, x := range list {
		if x == s {
			n++
		}
	}
	return n
}
