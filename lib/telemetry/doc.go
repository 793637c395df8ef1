// Package telemetry is Fluzo's OpenTelemetry runtime: traces, metrics and
// logs (slog bridged into OTel logs), a bounded local JSONL archive in
// .fluzodrive/telemetry/, and opt-in OTLP http/protobuf export.
//
// # Starting and stopping
//
//	rt, err := telemetry.Start(ctx, telemetry.Options{
//		DriveDir:       ".fluzodrive",          // "" = no local archive
//		ServiceVersion: core.Version,
//		Component:      "fluzo-agent",
//		Export: telemetry.Export{               // opt-in; off by default
//			Enabled:  cfg.ExportEnabled,
//			Endpoint: "http://127.0.0.1:4318",  // loopback may be plain HTTP
//			Headers:  map[string]string{"authorization": token},
//		},
//		CaptureContent: false,                  // content only with explicit consent
//	})
//	defer rt.Shutdown(context.Background())   // bounded flush (Options.ShutdownTimeout)
//
// Start fails only for invalid configuration (a typed
// invalid_configuration error naming telemetry.otlp_endpoint) or an
// unusable archive directory (storage_error). A collector outage is never
// an error: it shows in rt.Health().
//
// Every method is nil-safe: a nil *Runtime, and the nil *Span or
// *ChatSpan it returns, do nothing, so callers never test for telemetry.
//
// From an effective .fluzo: telemetry.OptionsFromConfig(cfg, ws.Drive(), "fluzo-agent").
//
// # Accessors
//
//	rt.Tracer()  trace.Tracer     rt.Meter() metric.Meter
//	rt.Logger()  *slog.Logger     (use InfoContext(ctx, …) for log–trace correlation)
//	rt.Metrics() *Metrics         (instruments with bounded attributes)
//	rt.Health()  Health           (per-sink queues, drops, export state)
//	rt.Flush(ctx)                 (push everything to the sinks; tests, checkpoints)
//
// # Spans for one task attempt (one-liners)
//
//	ctx, att := rt.StartAttempt(ctx, telemetry.AttemptInfo{Session: s, Task: t, Attempt: a, Number: n,
//		TraceID: refs.Trace,                                  // use the journal's trace ID
//		PreviousTrace: prevTrace, PreviousSpan: prevSpan}) // resumed: new trace + link
//	defer att.End(outcome, err)                          // outcome: completed, failed, cancelled…
//	ev.Trace, ev.Span = telemetry.IDs(ctx)               // stamp core.Event
//
//	ctx, s := rt.StartTurn(ctx, n)
//	ctx, s := rt.StartContextBuild(ctx)
//	ctx, s := rt.StartAdmission(ctx, pool)              // queue depth + wait metrics
//	ctx, c := rt.StartChat(ctx, telemetry.ChatRequest{Provider: "llama_swap", Model: alias,
//		Purpose: telemetry.PurposeAgentTurn, Stream: true, Conversation: sessionID})
//	  ctx2, p := rt.StartProviderAttempt(ctx, 1)         // one per physical HTTP attempt
//	  c.FirstChunk()
//	  c.Response(telemetry.ChatResponse{Model: reported, FinishReasons: []string{"stop"},
//		InputTokens: telemetry.Tokens(100), OutputTokens: telemetry.Tokens(20)})
//	  c.End(telemetry.OutcomeOK, nil)                    // GenAI duration + token metrics, once
//	ctx, s := rt.StartPolicyCheck(ctx, tool)             // End("allow"|"deny"|"ask", nil)
//	ctx, s := rt.StartApproval(ctx, tool)                // End("approved"|"rejected", nil)
//	ctx, s := rt.StartToolCall(ctx, tool, operationID)   // "execute_tool {tool}"
//	ctx, s := rt.StartVerification(ctx)                  // End(OutcomeFailed, err) counts a failure
//	ctx, s := rt.StartCompaction(ctx)                    // then StartChat with PurposeCompaction
//	ctx, s := rt.StartLayaObservation(ctx, obsID, point) // End("ok"|"skipped"|"timeout"…)
//
// Span.End(outcome, err) sets fluzo.outcome; failed and timeout set an
// error status; denied and cancelled are expected results and do not.
// err contributes its typed code as error.type; its text is recorded only
// with CaptureContent, since messages can carry paths or secrets.
//
// # Metrics
//
// rt.Metrics() records, with bounded labels only (enums, or configured
// provider/model/tool/pool names through a per-key limit of 32 values,
// beyond which "_other" is used): TaskEnded, ToolCall, Decision,
// Permission, Cost (known cost only — unknown is never zero),
// VerificationFailed, Retry, Cancelled, BudgetExhausted, QueueEntered/
// QueueLeft, LayaObservation. GenAI duration/token metrics and first-chunk
// latency come from ChatSpan. fluzo.telemetry.dropped,
// fluzo.telemetry.export.failures and fluzo.telemetry.queued report the
// sinks themselves. Session, task and trace IDs, paths, prompts and error
// text are never metric labels.
//
// # Sinks
//
// Each sink (archive.traces|metrics|logs, otlp.traces|metrics|logs) has its
// own queue bounded by record count and bytes. Admission never blocks:
// when a queue is full the record is dropped and counted by reason
// (queue_full, oversize, shutdown, delivery_failed). A slow disk or a dead
// collector fills only its own queue. Archive segments are
// <signal>-<start>-<pid>-<seq>.jsonl, rotated by size and never deleted
// by Fluzo; health.json beside them is refreshed every metric interval
// and at Shutdown.
//
// # Export
//
// OTLP export sets every exporter option explicitly, so no OTEL_*
// environment variable changes destination, headers, timeouts or proxy.
// Plain HTTP is accepted only to a loopback host unless
// Export.TrustedInsecure is set; redirects are refused (the target is
// never contacted); retries are bounded by Export.MaxRetryElapsed.
package telemetry
