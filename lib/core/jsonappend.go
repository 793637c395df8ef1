package core

import (
	"bytes"
	"encoding/json"
	"math"
	"sort"
	"strconv"
	"time"
	"unicode/utf8"
)

// Appenders for the hot JSON paths (event lines, telemetry records): they
// write exactly what encoding/json writes for the same value — the tests
// compare them byte for byte — without its reflection and allocations.

const hexDigits = "0123456789abcdef"

// plainASCII marks the ASCII bytes encoding/json writes as they are when
// HTML escaping is off; with it on, '<', '>' and '&' are escaped too.
var plainASCII = func() (t [utf8.RuneSelf]bool) {
	for b := 0x20; b < utf8.RuneSelf; b++ {
		t[b] = b != '"' && b != '\\'
	}
	return t
}()

// AppendJSONString appends s as a JSON string. escapeHTML is
// encoding/json's default (json.Marshal); MarshalVerbatim turns it off.
func AppendJSONString(dst []byte, s string, escapeHTML bool) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		if b := s[i]; b < utf8.RuneSelf {
			if plainASCII[b] && !(escapeHTML && (b == '<' || b == '>' || b == '&')) {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch b {
			case '\\', '"':
				dst = append(dst, '\\', b)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[b>>4], hexDigits[b&0xF])
			}
			i++
			start = i
			continue
		}
		c, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case c == utf8.RuneError && size == 1:
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
		case c == '\u2028' || c == '\u2029':
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[c&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// AppendJSONFloat appends f as encoding/json writes a float64; ok is
// false for NaN and infinities, which JSON cannot hold.
func AppendJSONFloat(dst []byte, f float64) ([]byte, bool) {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return dst, false
	}
	format := byte('f')
	if a := math.Abs(f); a != 0 && (a < 1e-6 || a >= 1e21) {
		format = 'e'
	}
	dst = strconv.AppendFloat(dst, f, format, -1, 64)
	if format == 'e' {
		// e-09 is written e-9, as encoding/json does.
		if n := len(dst); n >= 4 && dst[n-4] == 'e' && dst[n-3] == '-' && dst[n-2] == '0' {
			dst[n-2] = dst[n-1]
			dst = dst[:n-1]
		}
	}
	return dst, true
}

// AppendJSONTime appends t as time.Time's MarshalJSON does (RFC 3339 with
// nanoseconds); ok is false for a year JSON's format cannot hold.
func AppendJSONTime(dst []byte, t time.Time) ([]byte, bool) {
	if y := t.Year(); y < 0 || y > 9999 {
		return dst, false
	}
	if _, off := t.Zone(); off%60 != 0 || off <= -24*3600 || off >= 24*3600 {
		return dst, false
	}
	dst = append(dst, '"')
	dst = t.AppendFormat(dst, time.RFC3339Nano)
	return append(dst, '"'), true
}

// AppendJSON appends the event as MarshalVerbatim writes it (no HTML
// escaping, data compacted); ok is false when the data is not valid JSON
// or the time cannot be written, and the caller then encodes it the slow
// way to get encoding/json's own error.
func (e *Event) AppendJSON(dst []byte) ([]byte, bool) {
	dst = append(dst, `{"v":`...)
	dst = strconv.AppendInt(dst, int64(e.V), 10)
	dst = append(dst, `,"id":`...)
	dst = AppendJSONString(dst, e.ID, false)
	dst = append(dst, `,"seq":`...)
	dst = strconv.AppendInt(dst, e.Seq, 10)
	dst = append(dst, `,"ts":`...)
	dst, ok := AppendJSONTime(dst, e.TS)
	if !ok {
		return dst, false
	}
	dst = append(dst, `,"type":`...)
	dst = AppendJSONString(dst, e.Type, false)
	for _, f := range [...]struct{ key, val string }{
		{`,"session":`, e.Session}, {`,"task":`, e.Task}, {`,"attempt":`, e.Attempt}, {`,"operation":`, e.Operation},
		{`,"corr":`, e.Corr}, {`,"cause":`, e.Cause}, {`,"trace":`, e.Trace}, {`,"span":`, e.Span},
	} {
		if f.val != "" {
			dst = append(dst, f.key...)
			dst = AppendJSONString(dst, f.val, false)
		}
	}
	if len(e.Data) > 0 {
		dst = append(dst, `,"data":`...)
		buf := bytes.NewBuffer(dst)
		if json.Compact(buf, e.Data) != nil {
			return dst, false
		}
		dst = buf.Bytes()
	}
	return append(dst, '}'), true
}

// AppendJSONValue appends v as json.Marshal writes it (HTML escaped, map
// keys sorted) for the values events and telemetry attributes hold —
// strings, bools, integers, floats, their slices and string-keyed maps of
// them; anything else goes through json.Marshal. ok is carried through
// and cleared when something cannot be written.
func AppendJSONValue(dst []byte, v any, ok bool) ([]byte, bool) {
	return jsonValues{escapeHTML: true}.append(dst, v, ok)
}

// jsonValues writes values with json.Marshal's HTML escaping or, off,
// as MarshalVerbatim does.
type jsonValues struct{ escapeHTML bool }

func (w jsonValues) append(dst []byte, v any, ok bool) ([]byte, bool) {
	switch x := v.(type) {
	case nil:
		return append(dst, "null"...), ok
	case string:
		return AppendJSONString(dst, x, w.escapeHTML), ok
	case bool:
		return strconv.AppendBool(dst, x), ok
	case int:
		return strconv.AppendInt(dst, int64(x), 10), ok
	case int64:
		return strconv.AppendInt(dst, x, 10), ok
	case float64:
		return appendFloatOK(dst, x, ok)
	case []string:
		return appendJSONSlice(dst, x, ok, func(d []byte, s string, ok bool) ([]byte, bool) { return AppendJSONString(d, s, w.escapeHTML), ok })
	case []int64:
		return appendJSONSlice(dst, x, ok, func(d []byte, n int64, ok bool) ([]byte, bool) { return strconv.AppendInt(d, n, 10), ok })
	case []float64:
		return appendJSONSlice(dst, x, ok, appendFloatOK)
	case []bool:
		return appendJSONSlice(dst, x, ok, func(d []byte, b bool, ok bool) ([]byte, bool) { return strconv.AppendBool(d, b), ok })
	case []any:
		return appendJSONSlice(dst, x, ok, w.append)
	case map[string]any:
		return w.appendMap(dst, x, ok)
	}
	return w.slow(dst, v, ok)
}

// slow encodes a value of any other type with encoding/json itself.
func (w jsonValues) slow(dst []byte, v any, ok bool) ([]byte, bool) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(w.escapeHTML)
	if enc.Encode(v) != nil {
		return dst, false
	}
	return append(dst, bytes.TrimSuffix(buf.Bytes(), []byte("\n"))...), ok
}

func appendFloatOK(dst []byte, f float64, ok bool) ([]byte, bool) {
	dst, good := AppendJSONFloat(dst, f)
	return dst, ok && good
}

// appendMap writes m with its keys sorted, as json.Marshal does.
func (w jsonValues) appendMap(dst []byte, m map[string]any, ok bool) ([]byte, bool) {
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
		dst = AppendJSONString(dst, k, w.escapeHTML)
		dst = append(dst, ':')
		dst, ok = w.append(dst, m[k], ok)
	}
	return append(dst, '}'), ok
}

func appendJSONSlice[T any](dst []byte, xs []T, ok bool, one func([]byte, T, bool) ([]byte, bool)) ([]byte, bool) {
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
