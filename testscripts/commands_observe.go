package testscripts

import (
	"context"
	"path/filepath"
	"sync"

	"github.com/josecorral/fluzo/lib/telemetry"
	"github.com/rogpeppe/go-internal/testscript"
)

// Live telemetry writers started by telemetry-hold, per script.
var (
	heldMu sync.Mutex
	held   = map[*testscript.TestScript]*telemetry.Runtime{}
)

func init() {
	register("telemetry-emit", telemetryEmit)
	register("telemetry-hold", telemetryHold)
	register("telemetry-release", telemetryRelease)
}

// telemetry-emit WORKSPACE runs one instrumented attempt (a GenAI call, a
// tool call, a log line) into WORKSPACE/.fluzodrive and shuts down, as a
// short fluzo-agent run would.
func telemetryEmit(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: telemetry-emit WORKSPACE")
	}
	rt := startRuntime(ts, args[0])
	ctx, att := rt.StartAttempt(context.Background(), telemetry.AttemptInfo{Session: "ses_script", Task: "tsk_script", Attempt: "att_script", Number: 1})
	_, chat := rt.StartChat(ctx, telemetry.ChatRequest{Provider: "fluzo_sim", Model: "sim-model", Purpose: telemetry.PurposeAgentTurn})
	chat.Response(telemetry.ChatResponse{Model: "sim-model", FinishReasons: []string{"stop"}, InputTokens: telemetry.Tokens(12), OutputTokens: telemetry.Tokens(3)})
	chat.End(telemetry.OutcomeOK, nil)
	tctx, tool := rt.StartToolCall(ctx, "read_file", "op_script")
	rt.Logger().InfoContext(tctx, "tool finished")
	tool.End(telemetry.OutcomeOK, nil)
	att.End("completed", nil)
	ts.Check(rt.Shutdown(context.Background()))
}

// telemetry-hold WORKSPACE keeps a telemetry writer open until
// telemetry-release (or the end of the script).
func telemetryHold(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: telemetry-hold WORKSPACE")
	}
	rt := startRuntime(ts, args[0])
	heldMu.Lock()
	held[ts] = rt
	heldMu.Unlock()
	ts.Defer(func() { releaseHeld(ts) })
}

func telemetryRelease(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 0 {
		ts.Fatalf("usage: telemetry-release")
	}
	releaseHeld(ts)
}

func releaseHeld(ts *testscript.TestScript) {
	heldMu.Lock()
	rt := held[ts]
	delete(held, ts)
	heldMu.Unlock()
	rt.Shutdown(context.Background())
}

func startRuntime(ts *testscript.TestScript, ws string) *telemetry.Runtime {
	rt, err := telemetry.Start(context.Background(), telemetry.Options{
		DriveDir: filepath.Join(ts.MkAbs(ws), ".fluzodrive"), Component: "testscript",
	})
	ts.Check(err)
	return rt
}
