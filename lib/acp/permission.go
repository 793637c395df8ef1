package acp

import (
	"context"
	"encoding/json"

	sdk "github.com/coder/acp-go-sdk"
	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/port"
)

// The three answers an ask offers, as Fluzo's grants: once (consumed
// with the operation's intent), for this task (a task grant for exactly
// this operation), or reject (a deny).
const (
	optAllowOnce = "allow_once"
	optAllowTask = "allow_task"
	optReject    = "reject"
)

var permissionOptions = []sdk.PermissionOption{
	{OptionId: optAllowOnce, Name: "Allow once", Kind: sdk.PermissionOptionKindAllowOnce},
	{OptionId: optAllowTask, Name: "Allow for this task", Kind: sdk.PermissionOptionKindAllowAlways},
	{OptionId: optReject, Name: "Reject", Kind: sdk.PermissionOptionKindRejectOnce},
}

// askPermission shows one permission.requested to the editor and answers
// the owner with the user's choice. Until the user answers, the task
// waits (without using active time); ctx ends when the task did.
func (a *Agent) askPermission(ctx context.Context, s *session, own *owner, run *promptRun, ev *port.Event) {
	var d struct {
		Operation string          `json:"operation"`
		Tool      string          `json:"tool"`
		Args      json.RawMessage `json:"args"`
		Rule      string          `json:"rule"`
	}
	json.Unmarshal(ev.Data, &d)
	if d.Operation == "" {
		return
	}
	title := titleOf(d.Tool, "", d.Args)
	if d.Rule != "" {
		title += " (asks: " + d.Rule + ")"
	}
	call := sdk.ToolCallUpdate{
		ToolCallId: sdk.ToolCallId(d.Operation),
		Title:      sdk.Ptr(title),
		Kind:       sdk.Ptr(kindOf(d.Tool)),
		Status:     sdk.Ptr(sdk.ToolCallStatusPending),
		Locations:  locationsOf(a.workspace(), d.Args),
		Content:    diffOf(a.workspace(), d.Tool, d.Args),
	}
	if len(d.Args) > 0 {
		call.RawInput = d.Args
	}
	reply := a.answerTo(own)
	resp, err := sdk.SendRequest[sdk.RequestPermissionResponse](a.conn, ctx, sdk.ClientMethodSessionRequestPermission,
		sdk.RequestPermissionRequest{SessionId: sdk.SessionId(s.id), ToolCall: call, Options: permissionOptions})
	switch {
	case ctx.Err() != nil:
		return // the task ended (or was cancelled) while the ask was shown
	case err != nil:
		select {
		case <-a.conn.Done():
			return // the editor is gone: shutdown cancels the task
		default:
		}
		// The editor cannot ask: fail closed, as a deny.
		a.logf("fluzo-agent acp: the editor did not answer the permission request for %s (%v); denying it", d.Operation, err)
		reply(port.Deny(d.Operation))
		return
	}
	switch {
	case resp.Outcome.Cancelled != nil:
		// The editor cancels its asks when the user cancels the turn.
		a.requestCancel(own, run)
	case resp.Outcome.Selected == nil:
		reply(port.Deny(d.Operation))
	default:
		switch resp.Outcome.Selected.OptionId {
		case optAllowOnce:
			reply(port.Approve(d.Operation, "once"))
		case optAllowTask:
			reply(port.Approve(d.Operation, "task"))
		default:
			reply(port.Deny(d.Operation))
		}
	}
}

// answerTo returns a function that sends one approval command.
func (a *Agent) answerTo(own *owner) func(string, port.Args) {
	return func(name string, args port.Args) { a.answer(own, name, args) }
}

func (a *Agent) answer(own *owner, name string, args port.Args) {
	ctx, done := context.WithTimeout(context.Background(), answerBound)
	defer done()
	if _, err := own.call(ctx, name, args); err != nil {
		// A stale answer (the task ended or was cancelled) changes nothing.
		a.logf("fluzo-agent acp: %s: %s", name, core.AsError(err).Message)
	}
}
