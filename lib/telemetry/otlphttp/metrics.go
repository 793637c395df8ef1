package otlphttp

import (
	"fmt"
	"math"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
)

// EncodeMetrics is the body of an ExportMetricsServiceRequest holding
// rm. A metric of an aggregation this encoder does not know is left out
// and named in the error; the rest is still encoded.
func EncodeMetrics(rm *metricdata.ResourceMetrics) ([]byte, error) {
	var e enc
	var unknown []string
	e.msg(1, func(e *enc) {
		e.msg(1, func(e *enc) {
			for it := rm.Resource.Iter(); it.Next(); {
				e.keyValue(1, it.Attribute())
			}
		})
		for _, sm := range rm.ScopeMetrics {
			e.msg(2, func(e *enc) {
				e.msg(1, func(e *enc) {
					e.str(1, sm.Scope.Name)
					e.str(2, sm.Scope.Version)
					for it := sm.Scope.Attributes.Iter(); it.Next(); {
						e.keyValue(3, it.Attribute())
					}
				})
				for _, m := range sm.Metrics {
					if !knownData(m.Data) {
						unknown = append(unknown, fmt.Sprintf("%s (%T)", m.Name, m.Data))
						continue
					}
					e.msg(2, func(e *enc) { e.metric(m) })
				}
				e.str(3, sm.Scope.SchemaURL)
			})
		}
		e.str(3, rm.Resource.SchemaURL())
	})
	if len(unknown) > 0 {
		return e.b, fmt.Errorf("otlp: metrics of unknown aggregations left out: %v", unknown)
	}
	return e.b, nil
}

func knownData(d metricdata.Aggregation) bool {
	switch d.(type) {
	case metricdata.Gauge[int64], metricdata.Gauge[float64], metricdata.Sum[int64], metricdata.Sum[float64],
		metricdata.Histogram[int64], metricdata.Histogram[float64],
		metricdata.ExponentialHistogram[int64], metricdata.ExponentialHistogram[float64], metricdata.Summary:
		return true
	}
	return false
}

// metric writes a Metric (metrics.proto: name 1, description 2, unit 3,
// gauge 5, sum 7, histogram 9, exponential_histogram 10, summary 11).
func (e *enc) metric(m metricdata.Metrics) {
	e.str(1, m.Name)
	e.str(2, m.Description)
	e.str(3, m.Unit)
	switch d := m.Data.(type) {
	case metricdata.Gauge[int64]:
		e.msg(5, func(e *enc) { numberPoints(e, d.DataPoints) })
	case metricdata.Gauge[float64]:
		e.msg(5, func(e *enc) { numberPoints(e, d.DataPoints) })
	case metricdata.Sum[int64]:
		e.msg(7, func(e *enc) { numberPoints(e, d.DataPoints); e.sumTail(d.Temporality, d.IsMonotonic) })
	case metricdata.Sum[float64]:
		e.msg(7, func(e *enc) { numberPoints(e, d.DataPoints); e.sumTail(d.Temporality, d.IsMonotonic) })
	case metricdata.Histogram[int64]:
		e.msg(9, func(e *enc) { histogramPoints(e, d.DataPoints); e.uvarint(2, temporality(d.Temporality)) })
	case metricdata.Histogram[float64]:
		e.msg(9, func(e *enc) { histogramPoints(e, d.DataPoints); e.uvarint(2, temporality(d.Temporality)) })
	case metricdata.ExponentialHistogram[int64]:
		e.msg(10, func(e *enc) { exponentialPoints(e, d.DataPoints); e.uvarint(2, temporality(d.Temporality)) })
	case metricdata.ExponentialHistogram[float64]:
		e.msg(10, func(e *enc) { exponentialPoints(e, d.DataPoints); e.uvarint(2, temporality(d.Temporality)) })
	case metricdata.Summary:
		e.msg(11, func(e *enc) { summaryPoints(e, d.DataPoints) })
	}
}

func (e *enc) sumTail(t metricdata.Temporality, monotonic bool) {
	e.uvarint(2, temporality(t))
	e.boolv(3, monotonic)
}

// temporality maps the SDK's temporality to AggregationTemporality
// (delta 1, cumulative 2).
func temporality(t metricdata.Temporality) uint64 {
	switch t {
	case metricdata.DeltaTemporality:
		return 1
	case metricdata.CumulativeTemporality:
		return 2
	}
	return 0
}

func (e *enc) attrSet(field int, s attribute.Set) {
	for it := s.Iter(); it.Next(); {
		e.keyValue(field, it.Attribute())
	}
}

// number writes an int64 as sfixed64 or a float64 as double: the
// as_int/as_double oneof, present even at zero.
func number[N int64 | float64](e *enc, intField, doubleField int, v N) {
	switch x := any(v).(type) {
	case int64:
		e.tag(intField, wireI64)
		e.b = appendFixed64(e.b, uint64(x))
	case float64:
		e.doubleAlways(doubleField, x)
	}
}

// numberPoints writes NumberDataPoints (start 2, time 3, as_double 4,
// exemplars 5, as_int 6, attributes 7) as field 1.
func numberPoints[N int64 | float64](e *enc, dps []metricdata.DataPoint[N]) {
	for _, dp := range dps {
		e.msg(1, func(e *enc) {
			e.fixed64(2, unixNano(dp.StartTime))
			e.fixed64(3, unixNano(dp.Time))
			number(e, 6, 4, dp.Value)
			exemplars(e, 5, dp.Exemplars)
			e.attrSet(7, dp.Attributes)
		})
	}
}

// histogramPoints writes HistogramDataPoints (start 2, time 3, count 4,
// sum 5, bucket_counts 6, explicit_bounds 7, exemplars 8, attributes 9,
// min 11, max 12) as field 1.
func histogramPoints[N int64 | float64](e *enc, dps []metricdata.HistogramDataPoint[N]) {
	for _, dp := range dps {
		e.msg(1, func(e *enc) {
			e.fixed64(2, unixNano(dp.StartTime))
			e.fixed64(3, unixNano(dp.Time))
			e.fixed64(4, dp.Count)
			e.doubleAlways(5, float64(dp.Sum))
			e.packedFixed64(6, len(dp.BucketCounts), func(i int) uint64 { return dp.BucketCounts[i] })
			e.packedFixed64(7, len(dp.Bounds), func(i int) uint64 { return math.Float64bits(dp.Bounds[i]) })
			exemplars(e, 8, dp.Exemplars)
			e.attrSet(9, dp.Attributes)
			if v, ok := dp.Min.Value(); ok {
				e.doubleAlways(11, float64(v))
			}
			if v, ok := dp.Max.Value(); ok {
				e.doubleAlways(12, float64(v))
			}
		})
	}
}

// exponentialPoints writes ExponentialHistogramDataPoints (attributes 1,
// start 2, time 3, count 4, sum 5, scale 6, zero_count 7, positive 8,
// negative 9, exemplars 11, min 12, max 13, zero_threshold 14) as field 1.
func exponentialPoints[N int64 | float64](e *enc, dps []metricdata.ExponentialHistogramDataPoint[N]) {
	for _, dp := range dps {
		e.msg(1, func(e *enc) {
			e.attrSet(1, dp.Attributes)
			e.fixed64(2, unixNano(dp.StartTime))
			e.fixed64(3, unixNano(dp.Time))
			e.fixed64(4, dp.Count)
			e.doubleAlways(5, float64(dp.Sum))
			e.zigzag32(6, dp.Scale)
			e.fixed64(7, dp.ZeroCount)
			e.msg(8, func(e *enc) { e.zigzag32(1, dp.PositiveBucket.Offset); e.packedUvarint(2, dp.PositiveBucket.Counts) })
			e.msg(9, func(e *enc) { e.zigzag32(1, dp.NegativeBucket.Offset); e.packedUvarint(2, dp.NegativeBucket.Counts) })
			exemplars(e, 11, dp.Exemplars)
			if v, ok := dp.Min.Value(); ok {
				e.doubleAlways(12, float64(v))
			}
			if v, ok := dp.Max.Value(); ok {
				e.doubleAlways(13, float64(v))
			}
			e.double(14, dp.ZeroThreshold)
		})
	}
}

// summaryPoints writes SummaryDataPoints (start 2, time 3, count 4, sum 5,
// quantile_values 6 of quantile 1 and value 2, attributes 7) as field 1.
func summaryPoints(e *enc, dps []metricdata.SummaryDataPoint) {
	for _, dp := range dps {
		e.msg(1, func(e *enc) {
			e.fixed64(2, unixNano(dp.StartTime))
			e.fixed64(3, unixNano(dp.Time))
			e.fixed64(4, dp.Count)
			e.double(5, dp.Sum)
			for _, q := range dp.QuantileValues {
				e.msg(6, func(e *enc) { e.double(1, q.Quantile); e.double(2, q.Value) })
			}
			e.attrSet(7, dp.Attributes)
		})
	}
}

// exemplars writes Exemplars (time 2, as_double 3, span_id 4, trace_id 5,
// as_int 6, filtered_attributes 7) as field.
func exemplars[N int64 | float64](e *enc, field int, xs []metricdata.Exemplar[N]) {
	for _, x := range xs {
		e.msg(field, func(e *enc) {
			e.fixed64(2, unixNano(x.Time))
			number(e, 6, 3, x.Value)
			e.bytes(4, x.SpanID)
			e.bytes(5, x.TraceID)
			e.keyValues(7, x.FilteredAttributes)
		})
	}
}
