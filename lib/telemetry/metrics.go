package telemetry

import (
	"context"
	"sync"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
)

// Metrics holds Fluzo's instruments. Every method is nil-safe and takes
// only bounded attribute values: enums defined here, or configured names
// (provider, model alias, tool, pool) passed through a per-key limiter.
// Session, task, trace IDs, paths, prompts and error text are never labels.
type Metrics struct {
	taskOutcomes   metric.Int64Counter
	taskDuration   metric.Float64Histogram
	opDuration     metric.Float64Histogram // gen_ai.client.operation.duration
	tokenUsage     metric.Int64Histogram   // gen_ai.client.token.usage
	firstChunk     metric.Float64Histogram
	firstOutput    metric.Float64Histogram
	toolDuration   metric.Float64Histogram
	decisionDur    metric.Float64Histogram
	cost           metric.Float64Counter
	permissions    metric.Int64Counter
	verifyFailures metric.Int64Counter
	retries        metric.Int64Counter
	cancellations  metric.Int64Counter
	budgetExhaust  metric.Int64Counter
	queueDepth     metric.Int64UpDownCounter
	queueWait      metric.Float64Histogram
	layaObs        metric.Int64Counter
	layaDuration   metric.Float64Histogram
	layaAgreement  metric.Int64Counter
	limit          *cardinalityLimiter
}

// Instrument names, stable: dashboards and tests use them.
const (
	MetricTaskOutcomes    = "fluzo.task.outcomes"
	MetricTaskDuration    = "fluzo.task.duration"
	MetricGenAIDuration   = "gen_ai.client.operation.duration"
	MetricGenAITokens     = "gen_ai.client.token.usage"
	MetricFirstChunk      = "fluzo.provider.first_chunk.duration"
	MetricFirstOutput     = "fluzo.provider.first_output.duration"
	MetricToolDuration    = "fluzo.tool.duration"
	MetricDecisionLatency = "fluzo.decision.duration"
	MetricCost            = "fluzo.cost.estimated"
	MetricPermissions     = "fluzo.permission.outcomes"
	MetricVerifyFailures  = "fluzo.verification.failures"
	MetricRetries         = "fluzo.retries"
	MetricCancellations   = "fluzo.cancellations"
	MetricBudgetExhausted = "fluzo.budget.exhausted"
	MetricQueueDepth      = "fluzo.queue.depth"
	MetricQueueWait       = "fluzo.queue.wait.duration"
	MetricLayaObs         = "fluzo.laya.observations"
	MetricLayaDuration    = "fluzo.laya.duration"
	MetricLayaAgreement   = "fluzo.laya.agreement"
	MetricTelemetryDrops  = "fluzo.telemetry.dropped"
	MetricExportFailures  = "fluzo.telemetry.export.failures"
	MetricQueued          = "fluzo.telemetry.queued"
)

// durationBuckets follow the GenAI convention's advisory boundaries (s).
var durationBuckets = []float64{0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92}

var tokenBuckets = []float64{1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864}

func newMetrics(m metric.Meter, rt *Runtime) (*Metrics, error) {
	x := &Metrics{limit: newCardinalityLimiter(maxValuesPerKey)}
	var err error
	hist := func(name, unit, desc string) metric.Float64Histogram {
		h, e := m.Float64Histogram(name, metric.WithUnit(unit), metric.WithDescription(desc), metric.WithExplicitBucketBoundaries(durationBuckets...))
		err = firstErr(err, e)
		return h
	}
	count := func(name, unit, desc string) metric.Int64Counter {
		c, e := m.Int64Counter(name, metric.WithUnit(unit), metric.WithDescription(desc))
		err = firstErr(err, e)
		return c
	}
	x.taskOutcomes = count(MetricTaskOutcomes, "{attempt}", "Task attempts ended, by outcome.")
	x.taskDuration = hist(MetricTaskDuration, "s", "Task attempt duration.")
	x.opDuration = hist(MetricGenAIDuration, "s", "GenAI operation duration (client-observed).")
	t, e := m.Int64Histogram(MetricGenAITokens, metric.WithUnit("{token}"), metric.WithDescription("Tokens used per GenAI operation, as reported by the provider."), metric.WithExplicitBucketBoundaries(tokenBuckets...))
	x.tokenUsage, err = t, firstErr(err, e)
	x.firstChunk = hist(MetricFirstChunk, "s", "Time from request to the first response chunk (not time to first token).")
	x.firstOutput = hist(MetricFirstOutput, "s", "Time from the start of a logical model call to its first meaningful output (content, reasoning or tool-call delta).")
	x.toolDuration = hist(MetricToolDuration, "s", "Tool call duration.")
	x.decisionDur = hist(MetricDecisionLatency, "s", "Policy, approval and Laya decision latency.")
	c, e2 := m.Float64Counter(MetricCost, metric.WithUnit("{USD}"), metric.WithDescription("Estimated cost: a configured price times reported usage (configured_price) or estimated usage (estimated_usage). Unknown cost is not recorded."))
	x.cost, err = c, firstErr(err, e2)
	x.permissions = count(MetricPermissions, "{decision}", "Permission decisions by outcome.")
	x.verifyFailures = count(MetricVerifyFailures, "{verification}", "Failed verification runs.")
	x.retries = count(MetricRetries, "{retry}", "Retries by kind.")
	x.cancellations = count(MetricCancellations, "{cancellation}", "Cancellations by phase.")
	x.budgetExhaust = count(MetricBudgetExhausted, "{event}", "Budget exhaustion by budget kind.")
	q, e3 := m.Int64UpDownCounter(MetricQueueDepth, metric.WithUnit("{request}"), metric.WithDescription("Requests waiting for admission."))
	x.queueDepth, err = q, firstErr(err, e3)
	x.queueWait = hist(MetricQueueWait, "s", "Time waiting for admission.")
	x.layaObs = count(MetricLayaObs, "{observation}", "Laya shadow observations by status.")
	x.layaDuration = hist(MetricLayaDuration, "s", "Laya observation latency.")
	x.layaAgreement = count(MetricLayaAgreement, "{observation}", "Laya recommendation vs actual runtime action (unlabelled agreement, not accuracy).")
	if err != nil {
		return nil, err
	}
	return x, registerHealthMetrics(m, rt)
}

func firstErr(a, b error) error {
	if a != nil {
		return a
	}
	return b
}

// registerHealthMetrics exposes drops, export failures and queue depth per
// sink. The callback reads in-memory counters only; it never logs, so a
// failing pipeline cannot trigger a telemetry storm about itself.
func registerHealthMetrics(m metric.Meter, rt *Runtime) error {
	drops, err := m.Int64ObservableCounter(MetricTelemetryDrops, metric.WithUnit("{record}"), metric.WithDescription("Telemetry records dropped, by sink and reason."))
	if err != nil {
		return err
	}
	fails, err := m.Int64ObservableCounter(MetricExportFailures, metric.WithUnit("{batch}"), metric.WithDescription("Failed deliveries, by sink and error category."))
	if err != nil {
		return err
	}
	queued, err := m.Int64ObservableGauge(MetricQueued, metric.WithUnit("{record}"), metric.WithDescription("Records waiting in each sink's queue."))
	if err != nil {
		return err
	}
	_, err = m.RegisterCallback(func(_ context.Context, o metric.Observer) error {
		for _, s := range rt.health.snapshot() {
			sink := attribute.String("sink", s.Name)
			for _, r := range []string{DropQueueFull, DropOversize, DropShutdown, DropDeliveryKO, DropArchiveFull} {
				o.ObserveInt64(drops, s.Dropped[r], metric.WithAttributes(sink, attribute.String("reason", r)))
			}
			o.ObserveInt64(fails, s.Failures, metric.WithAttributes(sink))
			o.ObserveInt64(queued, int64(s.Queued), metric.WithAttributes(sink))
		}
		return nil
	}, drops, fails, queued)
	return err
}

// maxValuesPerKey bounds distinct values of a configured-name attribute.
const maxValuesPerKey = 32

// OtherValue replaces values past a key's cardinality bound.
const OtherValue = "_other"

// cardinalityLimiter admits the first N distinct values of each key and
// maps the rest to OtherValue, so misconfiguration cannot explode series.
type cardinalityLimiter struct {
	mu   sync.Mutex
	max  int
	seen map[string]map[string]struct{}
}

func newCardinalityLimiter(n int) *cardinalityLimiter {
	return &cardinalityLimiter{max: n, seen: map[string]map[string]struct{}{}}
}

func (l *cardinalityLimiter) attr(key, v string) attribute.KeyValue {
	if v == "" {
		v = "unknown"
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	set := l.seen[key]
	if set == nil {
		set = map[string]struct{}{}
		l.seen[key] = set
	}
	if _, ok := set[v]; !ok {
		if len(set) >= l.max {
			return attribute.String(key, OtherValue)
		}
		set[v] = struct{}{}
	}
	return attribute.String(key, v)
}
