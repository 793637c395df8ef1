package store

import (
	"bytes"
	"context"
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/josecorral/fluzo/lib/core"
)

// TestEventLinesMatchTheEnvelope: the SQL-rendered export line is the
// same JSON envelope json.Marshal(core.Event) produces.
func TestEventLinesMatchTheEnvelope(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	ses, task := seedTask(t, s)
	odd := "quote\" back\\slash\nnew\ttab <&> é ✓ \x1b[31m"
	_, err := s.AppendBatch(ctx, []core.Event{
		{Type: "plain", Session: ses},
		{Type: "full", Session: ses, Task: task, Attempt: "att_x", Operation: "op_y", Corr: "c", Cause: "evt_z", Trace: "t", Span: "s",
			Data: json.RawMessage(" { \"a\" : [1, 2.5, \"x y\"], \"b\": null } ")},
		{Type: "odd", Session: ses, Corr: odd, Data: json.RawMessage(`{"text":"line\u2028sep \u001b"}`)},
		{Type: "sessionless"},
	})
	if err != nil {
		t.Fatal(err)
	}
	// Whole seconds and trailing zeros: RFC 3339 trims the fraction.
	for _, ns := range []int{0, 120000000} {
		s.now = func() time.Time { return time.Date(2026, 1, 2, 3, 4, 10, ns, time.UTC) }
		if _, err := s.Append(ctx, core.Event{Type: "round", Session: ses}); err != nil {
			t.Fatal(err)
		}
	}
	page, err := s.Events(ctx, EventQuery{})
	if err != nil {
		t.Fatal(err)
	}
	lines, err := s.EventLines(ctx, EventQuery{})
	if err != nil {
		t.Fatal(err)
	}
	if len(lines.Lines) != len(page.Events) || lines.Next != page.Next || lines.More != page.More {
		t.Fatalf("pages differ: %d/%d lines", len(lines.Lines), len(page.Events))
	}
	for i, ev := range page.Events {
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		enc.Encode(ev)
		got := string(lines.Lines[i])
		if got+"\n" != want.String() {
			t.Errorf("event %d (%s):\n got %s\nwant %s", i, ev.Type, got, want.String())
		}
		var back core.Event
		if err := json.Unmarshal(lines.Lines[i], &back); err != nil || !reflect.DeepEqual(normalize(back), normalize(ev)) {
			t.Errorf("event %d does not round-trip: %v\n%+v\n%+v", i, err, back, ev)
		}
	}
}

func normalize(ev core.Event) core.Event {
	var buf bytes.Buffer
	if len(ev.Data) > 0 {
		json.Compact(&buf, ev.Data)
		ev.Data = buf.Bytes()
	}
	ev.TS = ev.TS.UTC()
	return ev
}
