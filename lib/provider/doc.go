// Package provider is Fluzo's gateway to model servers: an OpenAI-compatible
// Chat Completions client (streaming and not, with tools) and a Laya
// decision client. It never follows a redirect, reads no configuration from
// the environment (no OPENAI_* variables, no proxy variables) and never
// logs credentials.
//
// # Chat
//
//	c, err := provider.New(provider.Endpoint{
//		BaseURL: "http://127.0.0.1:8080/v1",
//		APIKey:  provider.Secret(resolved), // formats as [redacted]
//		Timeouts: provider.Timeouts{Header: 30 * time.Second, FirstOutput: time.Minute,
//			Idle: 30 * time.Second, Total: 5 * time.Minute},
//		Retries: 1, // provider_retries
//	})
//	resp, err := c.Chat(ctx, provider.Request{
//		Model: "qwen", Messages: msgs, Tools: tools, MaxTokens: 4096, Stream: true,
//	}, func(d provider.Delta) { /* live display only */ })
//
// Messages cover the system, user, assistant (with ToolCalls) and tool
// (ToolCallID) roles. A successful Response has Content, Reasoning (kept
// apart from content), ToolCalls (complete, each with JSON-object
// Arguments), FinishReason, Usage (as reported, or Source "unknown" with nil
// counts — never zero), Estimate (the local estimate, EstimateTokens) and
// Attempts (one record per physical HTTP attempt: status, class, duration,
// backoff, whether output had started).
//
// On failure Chat returns a nil Response and a *core.Error with code
// provider_error (exit 12; cancelled for caller cancellation). ClassOf
// gives the fine class, AttemptsOf the attempts, StatusOf the HTTP status:
//
//	authentication        401/403
//	invalid_request       other 4xx
//	rate_limited          429 — never retried; Retry-After is ignored
//	capacity_rejected     402, or a body naming quota/capacity/overload — never retried
//	transient             5xx, connection failure, stream cut before completion — retried
//	protocol_error        malformed JSON, bad tool call, a buffer limit exceeded
//	redirect_blocked      any 3xx; Details: status, destination (sanitized origin only)
//	timeout_header        no headers within Timeouts.Header
//	timeout_first_output  no content/reasoning/tool-call delta within Timeouts.FirstOutput
//	timeout_idle          after output began, no data event for Timeouts.Idle
//	                      (keep-alive comments are not progress)
//	timeout_total         the whole call (retries and backoff included) over Timeouts.Total
//	                      or the caller's deadline
//
// Only transient failures are retried: at most Endpoint.Retries times,
// waiting Endpoint.Backoff (1 s, then 2 s) between attempts, and only when
// the wait fits the remaining Total budget. A stream that fails after
// partial output is discarded whole: onLive receives a DeltaRestart, and
// the retry is a new recorded attempt. Fragments are never returned.
//
// Endpoint.ResolveKey, when set, resolves the credential at the dispatch of
// every attempt (overriding APIKey). Endpoint.BeforeRetry is called before
// each retry so that the runtime can re-enter admission control; its error
// ends the call. Endpoint.Sleep replaces the real backoff wait in tests.
//
// # No redirects, no environment
//
// Requests go through an http.Transport's RoundTrip, not an http.Client:
// no redirect logic runs at all (a client parses a Location before its
// CheckRedirect hook and would quote a malformed one in its error). The
// transport has Proxy nil and the package reads no environment variable.
//
// # Stream dialects accepted
//
// Tool calls keyed by index; id and name only on a call's first delta;
// empty-string ids on later deltas (vLLM); a whole call in one chunk, or
// several whole calls each at index 0 with distinct ids (Ollama); a
// missing index continuing the current call (Gemini-compatible proxies);
// arguments sent as a JSON object instead of a string; finish_reason on a
// content chunk; usage on the finish chunk, in a separate "choices": []
// chunk, or absent; reasoning_content or reasoning kept apart from
// content; unknown fields ignored; "data: [DONE]" or end of body after a
// finish_reason. A call without an id gets "call_<n>". Buffers are bounded
// by Endpoint.Limits.
//
// # Models
//
// Client.Models lists GET /models for discovery.
//
// # Laya
//
//	l, err := provider.NewLaya(provider.Endpoint{BaseURL: "http://127.0.0.1:8080/upstream/laya/v1",
//		Timeouts: provider.Timeouts{Total: 5 * time.Second}})
//	resp, err := l.Ask(ctx, provider.LayaRequest{Model: "laya", State: snapshot,
//		Questions: map[string]provider.Question{
//			"kind": {Type: provider.QuestionChoice, Instructions: "What kind of task?",
//				Criteria: map[string]string{"bugfix": "…", "feature": "…"}},
//			"risk": {Type: provider.QuestionScore, Levels: []string{"low", "medium", "high"}},
//			"read_only": {Type: provider.QuestionNoul, Instructions: "Does the user forbid edits?"},
//		}})
//
// Ask posts to BaseURL+"/systemone" and validates the answer strictly: an
// unknown answer type, a probability outside [0,1], a distribution not
// summing to 1 (±0.01) or not covering exactly the offered options, a
// choice outside the offered set, a score outside its levels, a missing
// confidence, a missing or unasked answer — each is a protocol_error naming
// the question (Details["question"]). Both Laya's full response (Shape
// "full": answer_confidence, action.act_probability, routing, usage) and the
// strict Jev shape (Shape "jev") are accepted; provider confidence, answer
// confidence, option probabilities and act_probability stay distinct
// fields. Laya never retries and never follows redirects. Its answers are
// observations: nothing in them authorizes, routes or blocks anything.
package provider
