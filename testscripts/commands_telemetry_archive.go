package testscripts

import (
	"fmt"
	"strings"

	"github.com/josecorral/fluzo/lib/telemetry"
	"github.com/josecorral/fluzo/lib/telemetry/otlptest"
	"github.com/rogpeppe/go-internal/testscript"
)

// archive-check DIR RUN.jsonl EVENTS.jsonl checks the local telemetry
// archive DIR (a workspace's .fluzodrive/telemetry) against one agent
// attempt, as otlp-check does for export: one fluzo.attempt root span on
// the result's trace; every span ID on the task's events is an archived
// span of that trace; a log record carries the trace and one of its
// spans; the run's metrics were archived, none with a forbidden label.
func archiveCheck(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: archive-check DIR RUN.jsonl EVENTS.jsonl")
	}
	run := readAgentRun(ts, args[1], args[2])
	spans := map[string]string{}
	roots, logs := 0, 0
	metrics := map[string]bool{}
	var bad []string
	forbidden := map[string]bool{}
	for _, k := range otlptest.ForbiddenLabelKeys {
		forbidden[k] = true
	}
	var logRecs []*telemetry.Record
	_, err := telemetry.ScanArchive(ts.MkAbs(args[0]), func(r *telemetry.Record) bool {
		switch {
		case r.Type == telemetry.RecordSpan && r.Trace == run.trace:
			spans[r.Span] = r.Name
			if r.Name == telemetry.SpanAttempt && r.Parent == "" {
				roots++
			}
		case r.Type == telemetry.RecordLog && r.Trace == run.trace:
			logRecs = append(logRecs, r)
		case r.Type == telemetry.RecordMetric && r.Metric != nil:
			metrics[r.Metric.Name] = true
			for _, p := range r.Metric.Points {
				for k, v := range p.Attrs {
					if s, _ := v.(string); forbidden[k] || strings.Contains(s, run.task) || strings.Contains(s, run.trace) {
						bad = append(bad, fmt.Sprintf("metric %s labelled %s=%v", r.Metric.Name, k, v))
					}
				}
			}
		}
		return true
	})
	ts.Check(err)
	if roots != 1 {
		bad = append(bad, fmt.Sprintf("%d archived root fluzo.attempt spans on trace %s", roots, run.trace))
	}
	for _, id := range run.eventSpans {
		if spans[id] == "" {
			bad = append(bad, "event span "+id+" is not an archived span of the trace")
		}
	}
	for _, l := range logRecs {
		if spans[l.Span] != "" {
			logs++
		}
	}
	if logs == 0 {
		bad = append(bad, fmt.Sprintf("no archived log carries trace %s and one of its spans", run.trace))
	}
	for _, m := range agentRunMetrics {
		if !metrics[m] {
			bad = append(bad, "metric "+m+" not archived")
		}
	}
	if len(bad) > 0 {
		ts.Fatalf("archive-check:\n  %s", strings.Join(bad, "\n  "))
	}
	ts.Logf("archive-check: trace %s: %d spans, %d correlated logs; %d event spans all archived", run.trace, len(spans), logs, len(run.eventSpans))
}
