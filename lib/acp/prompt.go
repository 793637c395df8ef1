package acp

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	sdk "github.com/coder/acp-go-sdk"
	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/port"
)

// promptRun is one session/prompt in flight: a Fluzo task.
type promptRun struct {
	task       string // known once task.created arrives
	cancelWant bool   // session/cancel came (perhaps before the task id)
	cancelSent bool
}

// answerBound bounds an approval or cancel command sent to the owner.
const answerBound = 30 * time.Second

// prompt runs one task in the session and streams it as updates; it
// answers when the task's result arrives.
func (a *Agent) prompt(ctx context.Context, raw json.RawMessage) (any, *sdk.RequestError) {
	var p sdk.PromptRequest
	if err := decodeParams(sdk.AgentMethodSessionPrompt, raw, &p); err != nil {
		return nil, err
	}
	if err := require(sdk.AgentMethodSessionPrompt, raw, "sessionId", "prompt"); err != nil {
		return nil, err
	}
	s, rerr := a.lookup(sdk.AgentMethodSessionPrompt, p.SessionId)
	if rerr != nil {
		return nil, rerr
	}
	text, rerr := requestText(p.Prompt)
	if rerr != nil {
		return nil, rerr
	}
	run, rerr := a.begin(s)
	if rerr != nil {
		return nil, rerr
	}
	defer a.end(s)
	own, rerr := a.ownerFor(ctx)
	if rerr != nil {
		return nil, rerr
	}
	q := newQueue()
	release, err := own.listen(q)
	if err != nil {
		return nil, fluzoError(err)
	}
	defer release()
	if rerr := a.applyMode(ctx, s); rerr != nil {
		return nil, rerr
	}
	name, args := port.StartTaskIn(s.id, text)
	if _, err := own.call(ctx, name, args); err != nil {
		return nil, fluzoError(err)
	}
	// The editor gone or the request cancelled: the task is cancelled
	// too, and its result still awaited so the workspace is left clean.
	stopWatch := context.AfterFunc(ctx, func() { a.requestCancel(own, run) })
	defer stopWatch()
	return a.follow(s, own, run, q)
}

// begin marks the session's prompt as running; one at a time.
func (a *Agent) begin(s *session) (*promptRun, *sdk.RequestError) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if s.running != nil {
		return nil, invalidRequest("session %s already runs a prompt; wait for its answer or send session/cancel", s.id)
	}
	s.running = &promptRun{}
	return s.running, nil
}

func (a *Agent) end(s *session) {
	a.mu.Lock()
	s.running = nil
	a.mu.Unlock()
}

// follow translates the task's records until its result.
func (a *Agent) follow(s *session, own *owner, run *promptRun, q *queue) (any, *sdk.RequestError) {
	tr := newTranslator(a.workspace(), true, taskOps(own))
	asks, stopAsks := context.WithCancel(context.Background())
	defer stopAsks()
	bg := context.Background()
	for {
		rec, ok := q.pop(bg)
		if !ok {
			return nil, fluzoError(own.c.Err())
		}
		switch rec.Kind {
		case port.KindEvent:
			ev := rec.Event
			if ev.Session != "" && ev.Session != s.id {
				continue
			}
			if ev.Type == core.EvTaskCreated {
				a.taskKnown(own, run, ev.Task)
			}
			if ev.Type == core.EvPermissionRequested {
				go a.askPermission(asks, s, own, run, ev)
			}
			a.send(s.id, tr.event(ev))
		case port.KindLive:
			a.send(s.id, tr.delta(rec.Live))
		case port.KindResult:
			res := rec.Result
			// Approvals still shown are void: their operation is over.
			stopAsks()
			a.send(s.id, []sdk.SessionUpdate{tr.result(res)})
			return sdk.PromptResponse{StopReason: stopReason(res), Meta: resultMeta(res)}, nil
		}
	}
}

func (a *Agent) send(id string, ups []sdk.SessionUpdate) {
	for _, u := range ups {
		if err := a.notify(context.Background(), id, u); err != nil {
			return
		}
	}
}

// taskKnown records the task id and sends a cancel that came before it.
func (a *Agent) taskKnown(own *owner, run *promptRun, task string) {
	a.mu.Lock()
	first := run.task == ""
	if first {
		run.task = task
	}
	want := run.cancelWant
	a.mu.Unlock()
	if first && want {
		a.requestCancel(own, run)
	}
}

// cancel is session/cancel: the running task stops gracefully (the
// result's status then is cancelled).
func (a *Agent) cancel(ctx context.Context, raw json.RawMessage) (any, *sdk.RequestError) {
	var p sdk.CancelNotification
	if err := decodeParams(sdk.AgentMethodSessionCancel, raw, &p); err != nil {
		return nil, err
	}
	s, rerr := a.lookup(sdk.AgentMethodSessionCancel, p.SessionId)
	if rerr != nil {
		return nil, rerr
	}
	a.mu.Lock()
	run, own := s.running, a.own
	a.mu.Unlock()
	if run != nil && own != nil {
		a.requestCancel(own, run)
	}
	return nil, nil
}

// requestCancel sends the owner's cancel once the task id is known.
func (a *Agent) requestCancel(own *owner, run *promptRun) {
	a.mu.Lock()
	run.cancelWant = true
	task, send := run.task, run.task != "" && !run.cancelSent
	if send {
		run.cancelSent = true
	}
	a.mu.Unlock()
	if !send {
		return
	}
	ctx, done := context.WithTimeout(context.Background(), answerBound)
	defer done()
	name, args := port.Cancel(task)
	if _, err := own.call(ctx, name, args); err != nil {
		// The task may have ended meanwhile: its result answers the prompt.
		a.logf("fluzo-agent acp: cancel of %s: %s", task, core.AsError(err).Message)
	}
}

// stopReason maps a Fluzo result to how the prompt turn ended.
func stopReason(r *port.Result) sdk.StopReason {
	switch r.Status {
	case "completed":
		return sdk.StopReasonEndTurn
	case string(core.CodeCancelled):
		return sdk.StopReasonCancelled
	case string(core.CodeBudgetExhausted):
		if strings.Contains(r.Reason, "token") {
			return sdk.StopReasonMaxTokens
		}
		return sdk.StopReasonMaxTurnRequests
	case string(core.CodePermissionDenied), string(core.CodePermissionRequired):
		return sdk.StopReasonRefusal
	}
	// Failed verification, provider errors and the like end the turn;
	// the final message and _meta.fluzo say how.
	return sdk.StopReasonEndTurn
}

// resultMeta carries the Fluzo result's outcome for clients that read it.
func resultMeta(r *port.Result) map[string]any {
	m := map[string]any{"status": r.Status, "task": r.Task, "session": r.Session, "exit_code": core.ExitFor(core.Code(r.Status))}
	if r.Reason != "" {
		m["reason"] = r.Reason
	}
	if r.Verification != nil {
		m["verification"] = r.Verification.Verification
	}
	if r.Error != nil {
		m["error"] = r.Error
	}
	return map[string]any{"fluzo": m}
}

// requestText turns the prompt's content into the task's request. Text
// is taken as it is; embedded text resources are quoted with their URI;
// links are named (the agent reads workspace files with its own tools).
func requestText(blocks []sdk.ContentBlock) (string, *sdk.RequestError) {
	var b strings.Builder
	for i, c := range blocks {
		switch {
		case c.Text != nil:
			b.WriteString(c.Text.Text)
		case c.Resource != nil && c.Resource.Resource.TextResourceContents != nil:
			r := c.Resource.Resource.TextResourceContents
			b.WriteString("\n\nContents of " + r.Uri + ":\n```\n" + r.Text + "\n```\n")
		case c.ResourceLink != nil:
			b.WriteString(" " + c.ResourceLink.Uri + " ")
		default:
			return "", invalidParams(sdk.AgentMethodSessionPrompt, "prompt[%d] is an image, audio or binary resource; this agent takes text and embedded text resources (see promptCapabilities)", i)
		}
	}
	text := strings.TrimSpace(b.String())
	if text == "" {
		return "", invalidParams(sdk.AgentMethodSessionPrompt, "the prompt has no text; say what to do")
	}
	return text, nil
}

// taskOps answers a task's operations from the owner, cached until a
// refresh is asked for (a result adds what an operation returned).
func taskOps(own *owner) func(string, bool) map[string]opInfo {
	cache := map[string]map[string]opInfo{}
	return func(task string, refresh bool) map[string]opInfo {
		if ops, ok := cache[task]; ok && !refresh {
			return ops
		}
		ctx, done := context.WithTimeout(context.Background(), answerBound)
		defer done()
		data, err := own.call(ctx, "task", port.Args{"task": task})
		if err != nil {
			return cache[task]
		}
		cache[task] = decodeTaskOps(data)
		return cache[task]
	}
}
