package tui

import (
	"time"

	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/port"
	"github.com/josecorral/fluzo/lib/tui/cards"
)

// apply folds one port record into the screen state.
func (a *App) apply(r port.Record) {
	a.dirty.all = true
	switch r.Kind {
	case port.KindAck:
		a.ack(r.Ack)
	case port.KindError:
		if a.diffRefused(r.Error) {
			delete(a.pending, r.Error.Re)
			return
		}
		cmd := a.pending[r.Error.Re]
		delete(a.pending, r.Error.Re)
		a.interventionChanged(r.Error.Re, false)
		a.sessionsFailed(r.Error)
		a.viewRefusal(cmd, r.Error)
		e := r.Error.Error
		if cmd == "config_change" && a.dialog != dialogNone {
			a.configRefused(e) // inline at the keys, or a prompt
			return
		}
		a.addNotice("error", cmd+" refused: "+safeLine(string(e.Code)), safeLine(e.Message), safeLine(e.Hint))
		a.toastRefused(r.Error.Re, cmd, safeLine(string(e.Code)))
	case port.KindEvent:
		a.event(r.Event)
	case port.KindLive:
		a.live(r.Live)
	case port.KindResult:
		a.result(r.Result)
	}
}

func (a *App) ack(ack *port.Ack) {
	cmd := a.pending[ack.Re]
	delete(a.pending, ack.Re)
	if a.historyAck(ack) || a.operationsAck(ack) || a.diffAck(ack) || a.diagEventsAck(ack) || a.sessionsAck(cmd, ack) {
		return
	}
	switch cmd {
	case "subscribe":
		a.snapshot(ack.Data)
	case "settings":
		a.settings(ack.Data)
	case "config_change":
		a.configChanged(ack.Data)
	case "tasks":
		a.tasksAck(ack.Data)
	case "diagnose":
		a.diagAck(ack.Data)
	case "start_task", "resume":
		a.phase = phaseRunning
		a.task.startedAt = a.clock.Now()
	case "approve", "deny":
		var d struct{ Operation, Verdict, Scope string }
		json.Unmarshal(ack.Data, &d)
		a.resolveApproval(d.Operation, d.Verdict, d.Scope)
	case "edit_intervention", "withdraw_intervention":
		a.interventionChanged(ack.Re, true)
	case "queue_intervention":
		var d struct{ Intervention, State string }
		json.Unmarshal(ack.Data, &d)
		for _, it := range a.items {
			if it.kind == itemIntervention && (it.interv.reqID == ack.Re || it.interv.id == d.Intervention) {
				it.interv.id, it.interv.state = d.Intervention, d.State
				it.touch()
			}
		}
	case "set_yolo":
		var d struct{ Yolo bool }
		json.Unmarshal(ack.Data, &d)
		a.yolo = d.Yolo
	case "cancel", "force_stop":
		a.phase = phaseStopping
	}
}

type snapshotData struct {
	Running struct{ Session, Task, Attempt string } `json:"running"`
	Seqs    map[string]int64                        `json:"seqs"`
	Tasks   []struct {
		ID, Session, Request, State, Reason string
	} `json:"tasks"`
}

// snapshot applies the subscribe answer: what runs now, or what the last
// task left behind (an interrupted task is offered for resume, never
// resumed automatically).
func (a *App) snapshot(raw json.RawMessage) {
	var s snapshotData
	json.Unmarshal(raw, &s)
	a.phase = phaseEmpty
	defer func() {
		if !a.opts.Submit {
			return
		}
		a.opts.Submit = false
		if a.phase != phaseEmpty {
			a.setNotice("a task is already running: the draft is kept · enter queues it as a message")
			return
		}
		a.notice = ""
		a.lastEnter = a.start - time.Hour // the Enter that asked for this was debounced already
		a.submit()
	}()
	if s.Running.Task != "" {
		a.task = taskInfo{id: s.Running.Task, session: s.Running.Session, attempt: s.Running.Attempt, state: "running", startedAt: a.clock.Now()}
		a.phase = phaseRunning
		a.loadTail(s.Running.Session, s.Seqs[s.Running.Session])
		return
	}
	if n := len(s.Tasks); n > 0 {
		last := s.Tasks[n-1]
		a.info.session = last.Session
		a.loadTail(last.Session, s.Seqs[last.Session])
		switch last.State {
		case "interrupted", "blocked", "failed":
			a.task = taskInfo{id: last.ID, session: last.Session, request: safeLine(last.Request), state: last.State, reason: safeLine(last.Reason)}
			if last.State == "interrupted" || last.Reason == "interrupted" {
				a.phase = phaseInterrupted
				a.addNotice("warning", "Interrupted task "+last.ID, "“"+a.task.request+"” stopped when its owner went away.", "ctrl+r resumes it as a new attempt (never automatic); typing starts a new task")
			}
		}
	}
}

func (a *App) settings(raw json.RawMessage) {
	var s struct {
		Settings []struct {
			Key   string `json:"key"`
			Value any    `json:"value"`
		} `json:"settings"`
	}
	json.Unmarshal(raw, &s)
	vals := map[string]string{}
	for _, kv := range s.Settings {
		vals[kv.Key] = fmt.Sprint(kv.Value)
	}
	a.td.limits = map[string]string{}
	for _, k := range []string{"harness.max_turns", "harness.max_active_seconds", "harness.max_tool_calls", "harness.max_total_tokens"} {
		a.td.limits[k] = safeLine(vals[k])
	}
	a.takeSettings(raw) // the settings surfaces and the tui.* presentation
	a.notificationSettings(vals)
	if id := vals["agent.model"]; id != "" {
		if m := vals["models."+id+".model"]; m != "" {
			a.info.model = safeLine(m)
		}
	}
}

func (a *App) event(ev *port.Event) {
	if a.seen(ev) {
		return // already held: the snapshot and the live stream overlap
	}
	a.applyEvent(ev)
	if last := a.lastItem(); ev.Type == core.EvPermissionRequested && last != nil && last.kind == itemApproval {
		a.toastApproval(ev, last.approval) // live only: history pages never raise a toast
	}
}

// applyEvent folds one stored event into the screen state.
func (a *App) applyEvent(ev *port.Event) {
	if ev.Session != "" {
		a.info.session = ev.Session
	}
	switch ev.Type {
	case core.EvTaskCreated:
		var d struct{ Request string }
		decodeData(ev.Data, &d)
		a.task = taskInfo{id: ev.Task, session: ev.Session, request: safeText(d.Request), state: "pending", startedAt: a.clock.Now()}
		a.phase = phaseRunning
		a.info.files, a.info.pre = nil, nil
		if last := a.lastItem(); last == nil || last.kind != itemUser || last.text != a.task.request {
			a.addItem(&item{kind: itemUser, text: a.task.request})
		}
	case core.EvTaskState:
		var d struct{ To, Reason string }
		decodeData(ev.Data, &d)
		a.task.state, a.task.reason = d.To, safeLine(d.Reason)
		switch d.To {
		case "running":
			if a.phase != phaseStopping {
				a.phase = phaseRunning
			}
		case "waiting":
			a.phase = phaseWaiting
		case "stopping":
			a.phase = phaseStopping
		}
	case core.EvMessage:
		var d struct{ Role, Content string }
		decodeData(ev.Data, &d)
		if d.Role != "assistant" {
			return
		}
		if last := a.lastItem(); last != nil && last.kind == itemAssistant && !last.final {
			last.final = true
			if d.Content != "" {
				last.text = d.Content
			}
			last.touch()
		} else if d.Content != "" {
			a.addItem(&item{kind: itemAssistant, text: d.Content, final: true})
		}
	case core.EvOperationRequested:
		t := &toolInfo{op: cards.Op{ID: ev.Operation}}
		a.applyOp(t, ev)
		a.addItem(&item{kind: itemTool, tool: t})
	case core.EvOperationDecision, core.EvOperationIntent, core.EvOperationDispatched, core.EvOperationResult, core.EvOperationUnknown:
		if t := a.toolItem(ev.Operation); t != nil {
			a.applyOp(t.tool, ev)
			t.touch()
		}
		if ev.Type == core.EvOperationResult || ev.Type == core.EvOperationUnknown {
			if ev.Task != "" && a.task.id == "" {
				a.task.id = ev.Task
			}
			a.wantOperations()
		}
	case core.EvPermissionRequested:
		ap := newApproval(ev, a.clock.Now())
		if t := a.toolItem(ap.operation); t != nil {
			a.applyOp(t.tool, ev)
			t.touch()
		}
		a.addItem(&item{kind: itemApproval, approval: ap})
		a.phase = phaseWaiting
	case core.EvPermissionResolved:
		var d struct{ Operation, Verdict string }
		decodeData(ev.Data, &d)
		if it := a.approvalItem(d.Operation); it != nil && it.approval.state == approvalPending {
			a.resolveApproval(d.Operation, d.Verdict, "")
		}
		if t := a.toolItem(d.Operation); t != nil {
			a.applyOp(t.tool, ev)
			t.touch()
		}
		if a.phase == phaseWaiting {
			a.phase = phaseRunning
		}
	case core.EvCommandResult:
		// command.result names no operation: it is the evidence of the
		// latest exec call.
		if t := a.lastTool("exec"); t != nil {
			a.applyOp(t.tool, ev)
			t.touch()
		}
	case core.EvIntervention:
		var d struct{ ID, State string }
		decodeData(ev.Data, &d)
		for _, it := range a.items {
			if it.kind == itemIntervention && it.interv.id == d.ID {
				it.interv.state = d.State
				if d.State == "delivered" && a.comp.editing == d.ID {
					a.comp.editing = "" // too late to edit: the draft stays as a new message
					it.interv.editing = false
				}
				it.touch()
			}
		}
	case core.EvInterventionWithdrawn:
		var d struct{ ID string }
		decodeData(ev.Data, &d)
		if it := a.interventionItem(d.ID); it != nil {
			it.interv.state = "withdrawn"
			it.touch()
		}
	case core.EvYolo:
		var d struct{ On bool }
		decodeData(ev.Data, &d)
		a.yolo = d.On
	case core.EvDiffSummary:
		var d port.Diff
		decodeData(ev.Data, &d)
		a.info.files, a.info.pre = d.Changed, d.PreExisting
	}
}

func (a *App) live(l *port.Live) {
	switch l.Type {
	case "live.delta":
		last := a.lastItem()
		switch l.Kind {
		case "content":
		case "restart": // the provider retried: what streamed so far is void
			if last != nil && last.kind == itemAssistant && !last.final {
				last.text = ""
				last.touch()
			}
			return
		default: // reasoning and tool-call fragments are not conversation text
			return
		}
		if last == nil || last.kind != itemAssistant || last.final {
			last = &item{kind: itemAssistant}
			a.addItem(last)
		}
		last.text += l.Text
		last.touch()
		a.newOutput()
	case "live.operation":
		a.liveOperation(l)
	case "live.warning", "live.storage_warning", "live.protocol_error":
		a.setNotice(safeLine(strings.TrimPrefix(l.Type, "live.")) + ": " + safeLine(l.Message))
		a.toastLive(safeLine(strings.TrimPrefix(l.Type, "live.")), safeLine(l.Message))
	}
}

func (a *App) result(r *port.Result) {
	a.staleApprovals()
	a.td.result = r
	if a.dialog == dialogTasks {
		a.send(port.Tasks()) // the listed states and counts moved on: ask again
	}
	switch r.Status {
	case "completed":
		a.phase = phaseCompleted
	case "cancelled":
		a.phase = phaseCancelled
	case "blocked", "permission_required", "permission_denied", "budget_exhausted", "capacity_exhausted":
		a.phase = phaseBlocked
	case "interrupted", "unknown_outcome":
		a.phase = phaseInterrupted
	default:
		a.phase = phaseFailed
	}
	a.task.state = r.Status
	if r.Diff != nil {
		a.info.files, a.info.pre = r.Diff.Changed, r.Diff.PreExisting
	}
	for _, it := range a.items {
		if it.kind == itemIntervention && it.interv.state == "queued" {
			it.interv.state = "not delivered: the task ended"
			it.touch()
		}
	}
	a.comp.editing = ""
	a.addItem(&item{kind: itemResult, result: r})
	a.toastResult(r)
}

// portLost shows why the port went away; workspace_busy names the owner.
func (a *App) portLost(err error) {
	a.dirty.all = true
	a.lostErr = err
	a.staleApprovals()
	var lost *port.LostError
	if errors.As(err, &lost) {
		if o, ok := lost.BusyOwner(); ok {
			a.owner = &o
			a.phase = phaseBusy
			return
		}
	}
	a.phase = phaseLost
	msg := err.Error()
	if lost != nil && lost.Stderr != "" {
		msg = lost.Stderr
	}
	a.addNotice("error", "Disconnected from fluzo-agent serve", safeText(msg), "the task state is in the store; restart fluzo-tui to reconnect")
	a.toastLost()
}

func (a *App) addNotice(sev, title, body, hint string) {
	a.addItem(&item{kind: itemNotice, notice: notice{title: title, body: body, hint: hint, severity: sev}})
}

// addItem appends to the bounded history; the oldest items leave memory
// first (the store keeps them) and the view anchor moves with them.
func (a *App) addItem(it *item) {
	a.items = append(a.items, it)
	if len(a.items) > maxItems {
		drop := len(a.items) - maxItems
		a.items = append([]*item(nil), a.items[drop:]...)
		a.truncated += drop
		a.selected -= drop
		if a.selected < 0 {
			a.selected = 0
		}
	}
	a.newOutput()
}

// newOutput counts unread output while paused; following views move.
func (a *App) newOutput() {
	if !a.follow {
		a.unread++
	}
}

func (a *App) lastItem() *item {
	if len(a.items) == 0 {
		return nil
	}
	return a.items[len(a.items)-1]
}

// applyOp folds an operation event into the tool's card; data a card
// cannot decode is shown as a notice, never guessed at.
func (a *App) applyOp(t *toolInfo, ev *port.Event) {
	if err := t.op.ApplyEvent(ev.Type, ev.Data); err != nil {
		a.setNotice(safeLine(err.Error()))
	}
}

func (a *App) toolItem(op string) *item {
	for i := len(a.items) - 1; i >= 0; i-- {
		if it := a.items[i]; it.kind == itemTool && it.tool.op.ID == op {
			return it
		}
	}
	return nil
}

func (a *App) lastTool(name string) *item {
	for i := len(a.items) - 1; i >= 0; i-- {
		if it := a.items[i]; it.kind == itemTool && it.tool.op.Tool == name {
			return it
		}
	}
	return nil
}

func (a *App) approvalItem(op string) *item {
	for _, it := range a.items {
		if it.kind == itemApproval && it.approval.operation == op {
			return it
		}
	}
	return nil
}

// liveOperation shows a call as dispatched while it runs. The durable
// operation.dispatched event arrives only with the outcome, and an
// outcome already applied is never taken back: only an operation whose
// intent is committed moves to dispatched.
func (a *App) liveOperation(l *port.Live) {
	it := a.toolItem(l.Operation)
	if it == nil || l.State != string(core.OpDispatched) || !core.OperationState(it.tool.op.State).CanTransition(core.OpDispatched) {
		return
	}
	data, _ := json.Marshal(map[string]string{"to": l.State, "tool": l.Tool})
	a.applyOp(it.tool, &port.Event{Type: core.EvOperationDispatched, Operation: l.Operation, Data: data})
	it.touch()
}
