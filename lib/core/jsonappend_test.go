package core

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"testing"
	"time"
)

// trickyStrings cover every escaping rule of encoding/json.
var trickyStrings = []string{
	"", "plain", `quote " and \ backslash`, "<script>&amp;</script>", "\b\f\n\r\t\x00\x01\x1f\x7f",
	"line\u2028para\u2029end", "bad \xff\xfe utf8 \xc3", "héllo wörld 🚀", "\xe2\x80", strings64(),
}

func strings64() string {
	b := make([]byte, 0, 128)
	for c := 0; c < 128; c++ {
		b = append(b, byte(c))
	}
	return string(b)
}

func randomString(r *rand.Rand) string {
	if r.IntN(3) == 0 {
		return trickyStrings[r.IntN(len(trickyStrings))]
	}
	b := make([]byte, r.IntN(40))
	for i := range b {
		b[i] = byte(r.IntN(256))
	}
	return string(b)
}

func verbatim(t *testing.T, v any) []byte {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

func TestAppendJSONStringMatchesEncodingJSON(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 5000; i++ {
		s := randomString(r)
		want, _ := json.Marshal(s)
		if got := AppendJSONString(nil, s, true); !bytes.Equal(got, want) {
			t.Fatalf("escaped %q:\n got %s\nwant %s", s, got, want)
		}
		if got, want := AppendJSONString(nil, s, false), verbatim(t, s); !bytes.Equal(got, want) {
			t.Fatalf("verbatim %q:\n got %s\nwant %s", s, got, want)
		}
	}
}

func TestAppendJSONFloatMatchesEncodingJSON(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	fs := []float64{0, math.Copysign(0, -1), 1, -1, 0.1, 1e-6, 9.99e-7, 1e-7, 1e20, 1e21, 123456789.125, math.MaxFloat64, math.SmallestNonzeroFloat64, 5e-324, 1e-9}
	for i := 0; i < 5000; i++ {
		fs = append(fs, math.Float64frombits(r.Uint64()), r.NormFloat64()*math.Pow(10, float64(r.IntN(60)-30)))
	}
	for _, f := range fs {
		got, ok := AppendJSONFloat(nil, f)
		want, err := json.Marshal(f)
		if ok != (err == nil) || (ok && !bytes.Equal(got, want)) {
			t.Fatalf("%v (bits %x): got %s ok %v; want %s err %v", f, math.Float64bits(f), got, ok, want, err)
		}
	}
}

func TestEventAppendJSONMatchesMarshalVerbatim(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	zones := []*time.Location{time.UTC, time.FixedZone("x", 5*3600+30*60), time.FixedZone("y", -7*3600)}
	datas := []string{"", `{"a":1}`, ` { "b" : [ 1 , 2 ] , "c":"<&>" } `, `"text"`, `null`, `{"s":"\u2028\ud83d\ude80"}`}
	for i := 0; i < 3000; i++ {
		ev := Event{V: r.IntN(3), ID: randomString(r), Seq: r.Int64() - r.Int64(), Type: randomString(r),
			TS: time.Unix(r.Int64N(1<<34), r.Int64N(1e9)).In(zones[r.IntN(len(zones))])}
		for _, f := range []*string{&ev.Session, &ev.Task, &ev.Attempt, &ev.Operation, &ev.Corr, &ev.Cause, &ev.Trace, &ev.Span} {
			if r.IntN(2) == 0 {
				*f = randomString(r)
			}
		}
		if d := datas[r.IntN(len(datas))]; d != "" {
			ev.Data = json.RawMessage(d)
		}
		got, ok := ev.AppendJSON(nil)
		want := verbatim(t, ev)
		if !ok || !bytes.Equal(got, want) {
			t.Fatalf("event %d (ok %v):\n got %s\nwant %s", i, ok, got, want)
		}
		if mv, err := MarshalVerbatim(ev); err != nil || !bytes.Equal(mv, want) {
			t.Fatalf("MarshalVerbatim differs: %s (%v)", mv, err)
		}
	}
}

// What the appender cannot write goes the slow way and fails there, as
// before: invalid data and an out-of-range year are errors, not lines.
func TestEventThatCannotBeWrittenIsAnError(t *testing.T) {
	for _, ev := range []Event{
		{ID: "e", Type: "t", TS: time.Now(), Data: json.RawMessage(`{"a":`)},
		{ID: "e", Type: "t", TS: time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)},
	} {
		if b, err := MarshalVerbatim(ev); err == nil {
			t.Errorf("wrote %s", b)
		}
	}
}

func FuzzAppendJSONString(f *testing.F) {
	for _, s := range trickyStrings {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, _ := json.Marshal(s)
		if got := AppendJSONString(nil, s, true); !bytes.Equal(got, want) {
			t.Fatalf("%q: got %s want %s", s, got, want)
		}
	})
}

type namedCode string

type plainStruct struct {
	A string `json:"a"`
	B *int   `json:"b,omitempty"`
}

func randomValue(r *rand.Rand, depth int) any {
	n := 14
	if depth > 2 {
		n = 8
	}
	switch r.IntN(n) {
	case 0:
		return nil
	case 1:
		return randomString(r)
	case 2:
		return r.IntN(2) == 0
	case 3:
		return r.IntN(1000) - 500
	case 4:
		return r.Int64() - r.Int64()
	case 5:
		return r.NormFloat64() * math.Pow(10, float64(r.IntN(50)-25))
	case 6:
		return namedCode(randomString(r))
	case 7:
		return plainStruct{A: randomString(r)}
	case 8:
		return []string{randomString(r), randomString(r)}
	case 9:
		return []int64{r.Int64(), 0}
	case 10:
		return []float64{r.Float64(), 1e22}
	case 11:
		return []bool{true}
	case 12:
		xs := []any{}
		for i := r.IntN(3); i > 0; i-- {
			xs = append(xs, randomValue(r, depth+1))
		}
		return xs
	default:
		m := map[string]any{}
		for i := r.IntN(5); i > 0; i-- {
			m[randomString(r)] = randomValue(r, depth+1)
		}
		return m
	}
}

func TestAppendJSONValueMatchesJSONMarshal(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for i := 0; i < 5000; i++ {
		v := randomValue(r, 0)
		want, err := json.Marshal(v)
		got, ok := AppendJSONValue(nil, v, true)
		if ok != (err == nil) || (ok && !bytes.Equal(got, want)) {
			t.Fatalf("value %d %#v (ok %v):\n got %s\nwant %s (%v)", i, v, ok, got, want, err)
		}
	}
	for i := 0; i < 3000; i++ {
		m := map[string]any{"v": 1, "type": "live.delta", "text": randomValue(r, 1), randomString(r): randomValue(r, 0)}
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		err := enc.Encode(m)
		got, gerr := MarshalVerbatim(m)
		if (err == nil) != (gerr == nil) || (err == nil && !bytes.Equal(got, bytes.TrimSuffix(buf.Bytes(), []byte("\n")))) {
			t.Fatalf("verbatim map %d:\n got %s (%v)\nwant %s (%v)", i, got, gerr, buf.Bytes(), err)
		}
	}
	if _, ok := AppendJSONValue(nil, map[string]any{"x": []float64{math.Inf(1)}}, true); ok {
		t.Fatal("an infinity was written")
	}
}
