package agent

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/mcp"
	"github.com/josecorral/fluzo/lib/telemetry"
	"go.opentelemetry.io/otel/attribute"
)

// The traced* wrappers put one span around one step of the loop. Each
// calls the step unchanged, so with telemetry off (a nil runtime, whose
// spans are nil and do nothing) the loop behaves exactly as without them.

// outcomeOf maps a step's error to a span outcome: a stop carries its
// status (cancelled and denied are expected results, not failures).
func outcomeOf(err error) string {
	var s *stop
	switch {
	case err == nil:
		return telemetry.OutcomeOK
	case errors.As(err, &s):
		return string(s.status)
	}
	return telemetry.OutcomeFailed
}

// stopCause is the typed error a stop wraps, for error.type.
func stopCause(err error) error {
	var s *stop
	if errors.As(err, &s) {
		if s.err != nil {
			return s.err
		}
		return core.Errorf(s.status, "%s", s.reason)
	}
	return err
}

// tracedStart builds the initial context inside fluzo.context.build.
func (a *run) tracedStart(ctx context.Context, request string) error {
	ctx, s := a.Telemetry.runtime().StartContextBuild(ctx)
	err := a.start(ctx, request)
	bytes := 0
	for _, m := range a.msgs {
		bytes += len(m.Content)
	}
	s.SetAttributes(attribute.Int("fluzo.context.messages", len(a.msgs)), attribute.Int("fluzo.context.bytes", bytes))
	s.End(outcomeOf(err), stopCause(err))
	return err
}

// tracedTurn runs one turn inside fluzo.turn (numbered from 1 across
// resumed attempts, as the turn budget counts them).
func (a *run) tracedTurn(ctx context.Context) (bool, error) {
	ctx, s := a.Telemetry.runtime().StartTurn(ctx, a.steps.Turns())
	done, err := a.turn(ctx)
	s.SetAttributes(attribute.Bool("fluzo.turn.final", done))
	s.End(outcomeOf(err), stopCause(err))
	return done, err
}

// tracedAdmit waits for model/pool admission inside fluzo.admission, which
// records the queue depth and wait metrics.
func (a *run) tracedAdmit(ctx context.Context, purpose string) (slot, error) {
	ctx, s := a.Telemetry.runtime().StartAdmission(ctx, a.poolName())
	slot, err := a.admit(ctx, purpose)
	switch {
	case err == nil:
		s.End(telemetry.OutcomeOK, nil)
	case ctx.Err() != nil:
		s.End(telemetry.OutcomeCancelled, err)
	default:
		s.End(string(core.CodeOf(err)), err)
	}
	return slot, err
}

func (a *run) poolName() string {
	if a.Telemetry == nil || a.Telemetry.Pool == "" {
		return "default"
	}
	return a.Telemetry.Pool
}

// inferencePurpose maps a request purpose to fluzo.inference.purpose.
func inferencePurpose(purpose string) string {
	if purpose == purposeCompaction {
		return telemetry.PurposeCompaction
	}
	return telemetry.PurposeAgentTurn
}

// complete sends one logical model call inside a GenAI client span
// "chat {model}". The provider adds one fluzo.provider.attempt child per
// physical HTTP attempt (see traceProviderAttempts). Usage the provider
// did not report stays absent, never zero.
func (a *run) complete(ctx context.Context, req modelRequest, live func(liveDelta)) (modelResponse, error) {
	rt := a.Telemetry.runtime()
	provider := "openai_compatible"
	if a.Telemetry != nil && a.Telemetry.Provider != "" {
		provider = a.Telemetry.Provider
	}
	var price *telemetry.Price
	if a.Telemetry != nil {
		price = a.Telemetry.Price
	}
	ctx, chat := rt.StartChat(ctx, telemetry.ChatRequest{Provider: provider, Model: a.ModelName, Purpose: inferencePurpose(req.Purpose),
		Stream: true, Conversation: a.refs.Session, MaxTokens: req.MaxTokens, Price: price})
	ctx = withRuntime(ctx, rt)
	resp, err := a.Model.Complete(ctx, req, func(d liveDelta) {
		markFirstOutput(chat, d)
		if live != nil {
			live(d)
		}
	})
	if err != nil {
		outcome := telemetry.OutcomeFailed
		if ctx.Err() != nil {
			outcome = telemetry.OutcomeCancelled
		}
		chat.End(outcome, err)
		return resp, err
	}
	r := telemetry.ChatResponse{Model: resp.Model, InputTokens: resp.Usage.Input, OutputTokens: resp.Usage.Output,
		EstimatedInputTokens: resp.Estimate.Input, EstimatedOutputTokens: resp.Estimate.Output}
	if resp.FinishReason != "" {
		r.FinishReasons = []string{resp.FinishReason}
	}
	chat.Response(r)
	if rt.CaptureContent() {
		in, _ := json.Marshal(req.Messages)
		out, _ := json.Marshal(message{Role: roleAssistant, Content: resp.Content, ToolCalls: resp.ToolCalls})
		chat.Content(string(in), string(out))
	}
	chat.End(telemetry.OutcomeOK, nil)
	return resp, nil
}

// markFirstOutput times the first streamed chunk and, separately, the
// first meaningful output: content, reasoning or a tool-call fragment
// (the provider's own first-output definition). A restart marker after a
// retry is neither: it is the client's, not the model's.
func markFirstOutput(chat *telemetry.ChatSpan, d liveDelta) {
	if d.Kind == "restart" {
		return
	}
	chat.FirstChunk()
	switch d.Kind {
	case "content", "reasoning", "tool_call":
		chat.FirstOutput()
	}
}

// tracedCompaction puts fluzo.compaction around a compaction that will
// actually run; a turn that needs none gets no span.
func (a *run) tracedCompaction(ctx context.Context) error {
	rt := a.Telemetry.runtime()
	if rt == nil || a.Context.Window <= 0 {
		return a.compactIfNeeded(ctx)
	}
	if plan, err := planCompaction(a.msgs, len(a.toolSchemas()), a.Context); err == nil && !plan.Needed {
		return a.compactIfNeeded(ctx)
	}
	ctx, s := rt.StartCompaction(ctx)
	err := a.compactIfNeeded(ctx)
	s.End(outcomeOf(err), stopCause(err))
	return err
}

// tracedEvaluate runs policy inside fluzo.policy.check (decision latency)
// and counts the permission outcome; "ask" is counted again when the
// approval resolves.
func (a *run) tracedEvaluate(ctx context.Context, tool string, args json.RawMessage) (Decision, error) {
	rt := a.Telemetry.runtime()
	ctx, s := rt.StartPolicyCheck(ctx, tool)
	d, err := a.Policy.Evaluate(ctx, tool, args)
	verdict := d.Verdict
	if err != nil {
		verdict = verdictDeny
	}
	s.SetAttributes(attribute.String("fluzo.policy.rule", d.Rule))
	s.End(verdict, nil)
	source := "policy"
	if d.GrantID != "" {
		source = "grant"
	}
	rt.Metrics().Permission(ctx, verdict, source)
	return d, err
}

// tracedApprove waits for the user's answer inside fluzo.approval.
func (a *run) tracedApprove(ctx context.Context, p PendingApproval) (Decision, error) {
	rt := a.Telemetry.runtime()
	ctx, s := rt.StartApproval(ctx, p.Tool)
	d, err := a.Approver.Approve(ctx, a.refs, p)
	switch {
	case err != nil && ctx.Err() != nil:
		s.End(telemetry.OutcomeCancelled, err)
	case err != nil:
		s.End(telemetry.OutcomeFailed, err)
	default:
		s.End(d.Verdict, nil)
		rt.Metrics().Permission(ctx, d.Verdict, "user")
	}
	return d, err
}

// tracedDispatch runs one authorized tool call inside "execute_tool
// {tool}" (tool duration metric by outcome) and logs its end.
func (a *run) tracedDispatch(ctx context.Context, call toolCall, op string) (toolOutcome, error) {
	ctx, s := a.Telemetry.runtime().StartToolCall(ctx, call.Name, op)
	s.SetAttributes(attribute.String("gen_ai.tool.call.id", call.ID))
	if server, _, ok := mcp.SplitModelName(call.Name); ok {
		s.SetAttributes(attribute.String("fluzo.mcp.server", server))
	}
	out, stop := a.dispatch(ctx, call)
	outcome := telemetry.OutcomeOK
	var err error
	switch {
	case stop != nil:
		outcome, err = outcomeOf(stop), stopCause(stop)
	case !out.OK:
		outcome = telemetry.OutcomeFailed
		if out.Error != nil {
			err = out.Error
		}
	}
	a.Telemetry.logInfo(ctx, "tool call finished", "tool", call.Name, "operation", op, "outcome", outcome)
	s.End(outcome, err)
	return out, stop
}

// tracedVerify reruns the verification command inside fluzo.verification;
// a failed or stale verdict counts a verification failure.
func (a *run) tracedVerify(ctx context.Context) Verdict {
	ctx, s := a.Telemetry.runtime().StartVerification(ctx)
	v := a.verifyNow(ctx)
	s.SetAttributes(attribute.String("fluzo.verification", v.Verification))
	a.Telemetry.logInfo(ctx, "verification finished", "task", a.refs.Task, "verification", v.Verification, "completed", v.Completed)
	switch {
	case v.Completed:
		s.End(telemetry.OutcomeOK, nil)
	case v.Verification == VerifyFailed || v.Verification == VerifyStale:
		s.End(telemetry.OutcomeFailed, nil)
	default:
		s.End(telemetry.OutcomeSkipped, nil)
	}
	return v
}
