package telemetry

import (
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
		dst, ok = core.AppendJSONValue(dst, r.Resource, ok)
	}
	dst = appendOmit(dst, `,"scope":`, r.Scope)
	dst = appendOmit(dst, `,"trace":`, r.Trace)
	dst = appendOmit(dst, `,"span":`, r.Span)
	if len(r.Attrs) > 0 {
		dst = append(dst, `,"attrs":`...)
		dst, ok = core.AppendJSONValue(dst, r.Attrs, ok)
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
				dst, ok = core.AppendJSONValue(dst, e.Attrs, ok)
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
				dst, ok = core.AppendJSONValue(dst, l.Attrs, ok)
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
			dst, ok = core.AppendJSONValue(dst, r.Log.Body, ok)
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
