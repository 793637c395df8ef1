package telemetry

import (
	"context"
	"testing"
)

// A collector outage is visible as metrics too: the local archive's
// fluzo.telemetry.export.failures counts the failed deliveries per sink,
// and fluzo.telemetry.dropped the records lost with them.
func TestExportFailuresAndDropsAreArchivedMetrics(t *testing.T) {
	rt, dir := startArchive(t, Options{Export: Export{Enabled: true, Endpoint: "http://" + freeLoopbackAddr(t), MaxRetryElapsed: -1}})
	for i := 0; i < 3; i++ {
		runTurn(rt)
		rt.Flush(context.Background())
	}
	rt.Shutdown(context.Background())
	recs, _ := readAll(t, dir)
	last := map[string]map[string]float64{} // metric -> sink/reason -> last value
	for _, r := range recs {
		if r.Type != RecordMetric || (r.Metric.Name != MetricExportFailures && r.Metric.Name != MetricTelemetryDrops) {
			continue
		}
		if last[r.Metric.Name] == nil {
			last[r.Metric.Name] = map[string]float64{}
		}
		for _, p := range r.Metric.Points {
			key, _ := p.Attrs["sink"].(string)
			if reason, ok := p.Attrs["reason"].(string); ok {
				key += "/" + reason
			}
			last[r.Metric.Name][key] = *p.Value
		}
	}
	if last[MetricExportFailures]["otlp.traces"] < 1 {
		t.Errorf("%s = %v, want failed otlp.traces deliveries counted", MetricExportFailures, last[MetricExportFailures])
	}
	if last[MetricTelemetryDrops]["otlp.traces/"+DropDeliveryKO] < 1 {
		t.Errorf("%s = %v, want the undeliverable spans counted", MetricTelemetryDrops, last[MetricTelemetryDrops])
	}
	if last[MetricTelemetryDrops]["archive.traces/"+DropQueueFull] != 0 {
		t.Errorf("the archive dropped records during an outage: %v", last[MetricTelemetryDrops])
	}
}
