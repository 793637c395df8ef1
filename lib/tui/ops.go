package tui

import (
	"github.com/josecorral/fluzo/lib/port"
	"github.com/josecorral/fluzo/lib/tui/cards"
)

// The port's operation events say how a tool call went but not what it
// was called with (unless it asked for approval) nor what it returned;
// the task query holds both. When an operation ends the screen asks for
// the task once (at most one query in flight, one more if another ended
// meanwhile) and fills each card's arguments and result from it.

func (a *App) wantOperations() {
	if a.task.id == "" {
		return
	}
	if a.opsReq != "" {
		a.opsAgain = true
		return
	}
	a.opsReq = a.send("task", port.Args{"task": a.task.id})
}

// operationsAck merges a task answer into the tool cards; it reports
// false for other acks.
func (a *App) operationsAck(ack *port.Ack) bool {
	if ack.Re != a.opsReq || a.opsReq == "" {
		return false
	}
	a.opsReq = ""
	ops, err := cards.DecodeTaskOperations(ack.Data)
	if err != nil {
		a.setNotice(safeLine(err.Error()))
	}
	for _, it := range a.items {
		if it.kind != itemTool {
			continue
		}
		if op, ok := ops[it.tool.op.ID]; ok {
			if len(it.tool.op.Args) == 0 {
				it.tool.op.Args = op.Args
			}
			if len(op.Result) > 0 {
				it.tool.op.Result = op.Result
			}
			it.touch()
		}
	}
	if a.opsAgain {
		a.opsAgain = false
		a.wantOperations()
	}
	return true
}
