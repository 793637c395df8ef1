package telemetry

import (
	"encoding/json"
	"sort"
	"strconv"
	"time"

	"github.com/josecorral/fluzo/lib/core"
)

// Every span and log line of the archive is written here on the caller's
// goroutine, several per agent turn: the appender writes the bytes
// json.Marshal would (the tests compare them) without its reflection and
// per-field allocations. Metric records, a few per export interval, keep
// json.Marshal.

// appendRecord appends r's JSON; ok is false when a value cannot be
// written (NaN, a year past 9999, an unknown type that does not encode),
// and marshalLine then lets json.Marshal report it.
func appendRecord(dst []byte, r *Record) ([]byte, bool) {
	if r.Metric != nil {
		return dst, false
	}
	ok := true
	dst = append(dst, `{"v":`...)
	dst = strconv.AppendInt(dst, int64(r.V), 10)
	dst = appendKeyString(dst, `,"type":`, r.Type)
	dst = append(dst, `,"ts":`...)
	dst, ok = appendTime(dst, r.TS, ok)
	dst = append(dst, `,"resource":`...)
	if r.resourceJSON != nil {
		dst = append(dst, r.resourceJSON...)
	} else {
		dst, ok = appendMap(dst, r.Resource, ok)
	}
	dst = appendOmit(dst, `,"scope":`, r.Scope)
	dst = appendOmit(dst, `,"trace":`, r.Trace)
	dst = appendOmit(dst, `,"span":`, r.Span)
	if len(r.Attrs) > 0 {
		dst = append(dst, `,"attrs":`...)
		dst, ok = appendMap(dst, r.Attrs, ok)
	}
	dst = appendOmit(dst, `,"parent":`, r.Parent)
	dst = appendOmit(dst, `,"name":`, r.Name)
	dst = appendOmit(dst, `,"kind":`, r.Kind)
	if r.Start != nil {
		dst = append(dst, `,"start":`...)
		dst, ok = appendTime(dst, *r.Start, ok)
	}
	if r.End != nil {
		dst = append(dst, `,"end":`...)
		dst, ok = appendTime(dst, *r.End, ok)
	}
	if r.DurationMS != nil {
		dst = append(dst, `,"duration_ms":`...)
		dst, ok = appendFloat(dst, *r.DurationMS, ok)
	}
	dst = appendOmit(dst, `,"status":`, r.Status)
	dst = appendOmit(dst, `,"status_message":`, r.StatusMsg)
	if len(r.Events) > 0 {
		dst = append(dst, `,"events":[`...)
		for i, e := range r.Events {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendKeyString(dst, `{"name":`, e.Name)
			dst = append(dst, `,"ts":`...)
			dst, ok = appendTime(dst, e.TS, ok)
			if len(e.Attrs) > 0 {
				dst = append(dst, `,"attrs":`...)
				dst, ok = appendMap(dst, e.Attrs, ok)
			}
			dst = append(dst, '}')
		}
		dst = append(dst, ']')
	}
	if len(r.Links) > 0 {
		dst = append(dst, `,"links":[`...)
		for i, l := range r.Links {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendKeyString(dst, `{"trace":`, l.Trace)
			dst = appendKeyString(dst, `,"span":`, l.Span)
			if len(l.Attrs) > 0 {
				dst = append(dst, `,"attrs":`...)
				dst, ok = appendMap(dst, l.Attrs, ok)
			}
			dst = append(dst, '}')
		}
		dst = append(dst, ']')
	}
	if r.Log != nil {
		dst = appendKeyString(dst, `,"log":{"severity":`, r.Log.Severity)
		dst = append(dst, `,"severity_number":`...)
		dst = strconv.AppendInt(dst, int64(r.Log.SeverityNumber), 10)
		if r.Log.Body != nil {
			dst = append(dst, `,"body":`...)
			dst, ok = appendValue(dst, r.Log.Body, ok)
		}
		dst = append(dst, `,"observed":`...)
		dst, ok = appendTime(dst, r.Log.Observed, ok)
		dst = appendOmit(dst, `,"event_name":`, r.Log.EventName)
		dst = append(dst, '}')
	}
	if d := r.Dropped; d != nil {
		dst = append(dst, `,"dropped":{`...)
		first := true
		for _, f := range [...]struct {
			key string
			n   int
		}{{`"attrs":`, d.Attrs}, {`"events":`, d.Events}, {`"links":`, d.Links}} {
			if f.n == 0 {
				continue
			}
			if !first {
				dst = append(dst, ',')
			}
			first = false
			dst = append(dst, f.key...)
			dst = strconv.AppendInt(dst, int64(f.n), 10)
		}
		dst = append(dst, '}')
	}
	return append(dst, '}'), ok
}

func appendKeyString(dst []byte, key, s string) []byte {
	return core.AppendJSONString(append(dst, key...), s, true)
}

// appendOmit writes key and s unless s is empty (omitempty).
func appendOmit(dst []byte, key, s string) []byte {
	if s == "" {
		return dst
	}
	return appendKeyString(dst, key, s)
}

func appendTime(dst []byte, t time.Time, ok bool) ([]byte, bool) {
	dst, good := core.AppendJSONTime(dst, t)
	return dst, ok && good
}

func appendFloat(dst []byte, f float64, ok bool) ([]byte, bool) {
	dst, good := core.AppendJSONFloat(dst, f)
	return dst, ok && good
}

// appendMap writes m with its keys sorted, as json.Marshal does.
func appendMap(dst []byte, m map[string]any, ok bool) ([]byte, bool) {
	if m == nil {
		return append(dst, "null"...), ok
	}
	var small [16]string
	keys := small[:0]
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	dst = append(dst, '{')
	for i, k := range keys {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = core.AppendJSONString(dst, k, true)
		dst = append(dst, ':')
		dst, ok = appendValue(dst, m[k], ok)
	}
	return append(dst, '}'), ok
}

// appendValue writes the values attribute.Value.AsInterface returns; any
// other type goes through json.Marshal.
func appendValue(dst []byte, v any, ok bool) ([]byte, bool) {
	switch x := v.(type) {
	case nil:
		return append(dst, "null"...), ok
	case string:
		return core.AppendJSONString(dst, x, true), ok
	case bool:
		return strconv.AppendBool(dst, x), ok
	case int64:
		return strconv.AppendInt(dst, x, 10), ok
	case int:
		return strconv.AppendInt(dst, int64(x), 10), ok
	case float64:
		return appendFloat(dst, x, ok)
	case []string:
		return appendSlice(dst, x, ok, func(d []byte, s string, ok bool) ([]byte, bool) { return core.AppendJSONString(d, s, true), ok })
	case []int64:
		return appendSlice(dst, x, ok, func(d []byte, n int64, ok bool) ([]byte, bool) { return strconv.AppendInt(d, n, 10), ok })
	case []float64:
		return appendSlice(dst, x, ok, appendFloat)
	case []bool:
		return appendSlice(dst, x, ok, func(d []byte, b bool, ok bool) ([]byte, bool) { return strconv.AppendBool(d, b), ok })
	case map[string]any:
		return appendMap(dst, x, ok)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return dst, false
	}
	return append(dst, b...), ok
}

func appendSlice[T any](dst []byte, xs []T, ok bool, one func([]byte, T, bool) ([]byte, bool)) ([]byte, bool) {
	if xs == nil {
		return append(dst, "null"...), ok
	}
	dst = append(dst, '[')
	for i, x := range xs {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst, ok = one(dst, x, ok)
	}
	return append(dst, ']'), ok
}
