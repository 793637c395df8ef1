package testscripts

import (
	"bufio"
	"encoding/json"
	"os"
	"strings"
	"sync"

	"github.com/josecorral/fluzo/lib/telemetry"
	"github.com/josecorral/fluzo/lib/telemetry/otlptest"
	"github.com/rogpeppe/go-internal/testscript"
)

func init() {
	register("otlp-start", otlpStart)
	register("otlp-check", otlpCheck)
	register("archive-check", archiveCheck)
}

var (
	otlpMu        sync.Mutex
	otlpReceivers = map[*testscript.TestScript]*otlptest.Receiver{}
)

// otlp-start starts an OTLP/HTTP receiver on 127.0.0.1 in this test
// process (decoding the protobuf payloads) and sets $OTLP_URL to its base
// URL. It stops with the script.
func otlpStart(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 0 {
		ts.Fatalf("usage: otlp-start")
	}
	r, err := otlptest.Start("")
	ts.Check(err)
	otlpMu.Lock()
	otlpReceivers[ts] = r
	otlpMu.Unlock()
	ts.Defer(func() {
		r.Close()
		otlpMu.Lock()
		delete(otlpReceivers, ts)
		otlpMu.Unlock()
	})
	ts.Setenv("OTLP_URL", r.URL())
}

// otlp-check RUN.jsonl EVENTS.jsonl [TOOL...] checks what the receiver
// got from one agent attempt: the result record in RUN.jsonl (a --json
// run's output) names the trace; every event of the task in EVENTS.jsonl
// (fluzo-store events output) must carry that trace, and the spans they
// carry must be spans of it; then otlptest.CheckAgentRun applies, with an
// execute_tool span required for each TOOL.
func otlpCheck(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: otlp-check RUN.jsonl EVENTS.jsonl [TOOL...]")
	}
	otlpMu.Lock()
	r := otlpReceivers[ts]
	otlpMu.Unlock()
	if r == nil {
		ts.Fatalf("otlp-check: no receiver; use otlp-start first")
	}
	run := readAgentRun(ts, args[0], args[1])
	want := otlptest.AgentRun{Trace: run.trace, Tools: args[2:], EventSpans: run.eventSpans, Metrics: append([]string{
		telemetry.MetricFirstChunk, telemetry.MetricFirstOutput, telemetry.MetricToolDuration, telemetry.MetricDecisionLatency, telemetry.MetricPermissions,
		telemetry.MetricQueueDepth, telemetry.MetricQueueWait, telemetry.MetricTelemetryDrops,
	}, agentRunMetrics...)}
	if bad := r.CheckAgentRun(want); len(bad) > 0 {
		ts.Fatalf("otlp-check:\n  %s", strings.Join(bad, "\n  "))
	}
	ts.Logf("otlp-check: trace %s: %d events (%d with spans) correlate with the exported spans", run.trace, run.events, len(run.eventSpans))
}

// agentRunMetrics are instruments every completed agent attempt records.
var agentRunMetrics = []string{telemetry.MetricTaskOutcomes, telemetry.MetricTaskDuration, telemetry.MetricGenAIDuration, telemetry.MetricGenAITokens}

// agentRun is one attempt as its result record and the store's events
// describe it.
type agentRun struct {
	task, trace string
	events      int
	eventSpans  []string
}

// readAgentRun takes the result record of RUN.jsonl (a --json run's
// output) and the task's events from EVENTS.jsonl (fluzo-store events
// output); every event of the task must carry the result's trace.
func readAgentRun(ts *testscript.TestScript, runFile, eventsFile string) agentRun {
	var result struct{ Type, Task, Trace string }
	eachJSONLine(ts, ts.MkAbs(runFile), func(line []byte) {
		var rec struct{ Type, Task, Trace string }
		if json.Unmarshal(line, &rec) == nil && rec.Type == "result" {
			result = rec
		}
	})
	if len(result.Trace) != 32 || result.Task == "" {
		ts.Fatalf("no result record with a task and a 32-hex trace in %s", runFile)
	}
	run := agentRun{task: result.Task, trace: result.Trace}
	eachJSONLine(ts, ts.MkAbs(eventsFile), func(line []byte) {
		var ev struct{ Type, Task, Trace, Span string }
		if json.Unmarshal(line, &ev) != nil || ev.Task != result.Task {
			return
		}
		run.events++
		if ev.Trace != result.Trace {
			ts.Fatalf("event %s of task %s has trace %q, the result says %q", ev.Type, ev.Task, ev.Trace, result.Trace)
		}
		if ev.Span != "" {
			run.eventSpans = append(run.eventSpans, ev.Span)
		}
	})
	if run.events == 0 || len(run.eventSpans) == 0 {
		ts.Fatalf("%d events of task %s, %d with a span ID", run.events, result.Task, len(run.eventSpans))
	}
	return run
}

func eachJSONLine(ts *testscript.TestScript, path string, fn func([]byte)) {
	f, err := os.Open(path)
	ts.Check(err)
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		fn(sc.Bytes())
	}
	ts.Check(sc.Err())
}
