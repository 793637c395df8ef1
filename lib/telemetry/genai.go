package telemetry

import (
	"context"
	"time"

	"github.com/josecorral/fluzo/lib/core"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"
)

// Inference purposes (fluzo.inference.purpose).
const (
	PurposeAgentTurn  = "agent_turn"
	PurposeCompaction = "context_compaction"
	PurposeProbe      = "capability_probe"
)

// ChatRequest describes one logical generative call.
type ChatRequest struct {
	// Operation defaults to "chat".
	Operation string
	// Provider is gen_ai.provider.name (e.g. "openai", or the documented
	// custom "llama_swap"); Model the requested model alias.
	Provider, Model string
	// Purpose is fluzo.inference.purpose (agent_turn, context_compaction…).
	Purpose      string
	Stream       bool
	Conversation string // the real session ID, when applicable
	MaxTokens    int
	// Price, when configured, prices the call's usage into
	// fluzo.cost.estimated; nil leaves the cost unknown (not recorded).
	Price *Price
}

// ChatResponse is the provider's normalized answer. Token counts are
// pointers: nil means the provider did not report them, and they are then
// omitted — never written as zero.
type ChatResponse struct {
	Model           string
	ID              string
	FinishReasons   []string
	InputTokens     *int64
	OutputTokens    *int64
	CacheReadTokens *int64
	ReasoningTokens *int64
	// EstimatedInputTokens and EstimatedOutputTokens are the local
	// estimate, used only to price a call whose usage was not reported.
	EstimatedInputTokens, EstimatedOutputTokens *int64
}

// ChatSpan is a GenAI CLIENT span "{operation} {model}" covering one
// logical call, including its allowed retries (physical attempts are
// child spans). End records the GenAI duration and token metrics once.
type ChatSpan struct {
	*Span
	req       ChatRequest
	resp      ChatResponse
	responded bool
	gotFirst  bool
	gotOutput bool
}

// StartChat starts a GenAI client span. With a nil Runtime it returns ctx
// and a nil *ChatSpan whose methods do nothing.
func (rt *Runtime) StartChat(ctx context.Context, req ChatRequest) (context.Context, *ChatSpan) {
	if req.Operation == "" {
		req.Operation = "chat"
	}
	attrs := []attribute.KeyValue{
		attribute.String("gen_ai.operation.name", req.Operation),
		attribute.String("gen_ai.provider.name", req.Provider),
		attribute.String("gen_ai.request.model", req.Model),
		attribute.Bool("gen_ai.request.stream", req.Stream),
	}
	if req.Purpose != "" {
		attrs = append(attrs, attribute.String("fluzo.inference.purpose", req.Purpose))
	}
	if req.Conversation != "" {
		attrs = append(attrs, attribute.String("gen_ai.conversation.id", req.Conversation))
	}
	if req.MaxTokens > 0 {
		attrs = append(attrs, attribute.Int("gen_ai.request.max_tokens", req.MaxTokens))
	}
	ctx, s := rt.start(ctx, req.Operation+" "+req.Model, trace.SpanKindClient, attrs)
	if s == nil {
		return ctx, nil
	}
	return ctx, &ChatSpan{Span: s, req: req}
}

// FirstChunk marks the first response chunk (which may be metadata, so it
// is not called time to first token). Only the first call counts.
func (c *ChatSpan) FirstChunk() {
	if c == nil || c.gotFirst {
		return
	}
	c.gotFirst = true
	d := time.Since(c.start)
	c.span.AddEvent("first_chunk")
	c.rt.metrics.firstChunkAfter(c.ctx, c.req.Provider, c.req.Model, d)
}

// FirstOutput marks the first meaningful model output (a content,
// reasoning or tool-call delta; never headers, keep-alives or metadata
// chunks): the PRD's time to first model output, measured from the start
// of the logical call. Only the first call counts.
func (c *ChatSpan) FirstOutput() {
	if c == nil || c.gotOutput {
		return
	}
	c.gotOutput = true
	d := time.Since(c.start)
	c.span.AddEvent("first_output")
	c.rt.metrics.firstOutputAfter(c.ctx, c.req.Provider, c.req.Model, d)
}

// Response records the normalized response metadata and usage, and the
// estimated cost when a price is configured.
func (c *ChatSpan) Response(r ChatResponse) {
	if c == nil {
		return
	}
	c.resp, c.responded = r, true
	if amount, provenance, ok := c.cost(); ok {
		c.span.SetAttributes(attribute.Float64(MetricCost, amount), attribute.String(LabelProvenance, provenance), attribute.String(LabelCurrency, CostCurrency))
	}
	if r.Model != "" {
		c.span.SetAttributes(attribute.String("gen_ai.response.model", r.Model))
	}
	if r.ID != "" {
		c.span.SetAttributes(attribute.String("gen_ai.response.id", r.ID))
	}
	if len(r.FinishReasons) > 0 {
		c.span.SetAttributes(attribute.StringSlice("gen_ai.response.finish_reasons", r.FinishReasons))
	}
	for key, v := range map[string]*int64{
		"gen_ai.usage.input_tokens": r.InputTokens, "gen_ai.usage.output_tokens": r.OutputTokens,
		"gen_ai.usage.cache_read.input_tokens": r.CacheReadTokens, "gen_ai.usage.reasoning.output_tokens": r.ReasoningTokens,
	} {
		if v != nil {
			c.span.SetAttributes(attribute.Int64(key, *v))
		}
	}
}

// Content records input and output messages only when content capture
// was explicitly enabled; otherwise it does nothing.
func (c *ChatSpan) Content(inputJSON, outputJSON string) {
	if c == nil || !c.rt.CaptureContent() {
		return
	}
	c.span.SetAttributes(attribute.String("gen_ai.input.messages", inputJSON), attribute.String("gen_ai.output.messages", outputJSON))
}

// End closes the span and records gen_ai.client.operation.duration and
// gen_ai.client.token.usage (reported counts only).
func (c *ChatSpan) End(outcome string, err error) {
	if c == nil || !c.ended.CompareAndSwap(false, true) {
		return
	}
	errType := ""
	if err != nil {
		errType = string(core.CodeOf(err))
	} else if outcome != "" && outcome != OutcomeOK {
		errType = outcome
	}
	c.rt.metrics.genAI(c.ctx, c.req.Operation, c.req.Provider, c.req.Model, errType, time.Since(c.start), c.resp.InputTokens, c.resp.OutputTokens)
	if amount, provenance, ok := c.cost(); ok {
		c.rt.metrics.Cost(c.ctx, amount, CostCurrency, provenance)
	}
	c.Span.finish(outcome, err)
}

// Tokens is a convenience for building ChatResponse counts.
func Tokens(n int64) *int64 { return &n }

// cost prices the recorded response; ok is false without a response, a
// price, or usage that is at least estimated.
func (c *ChatSpan) cost() (float64, string, bool) {
	if !c.responded {
		return 0, "", false
	}
	r := c.resp
	return EstimateCost(c.req.Price, r.InputTokens, r.OutputTokens, r.EstimatedInputTokens, r.EstimatedOutputTokens)
}
