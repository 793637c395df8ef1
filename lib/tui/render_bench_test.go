package tui

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/josecorral/fluzo/lib/port"
)

// Render cost at 160x50 with 10k history items fed through the port
// (memory keeps the newest maxItems of them), for "scripts/bench tui".
// Reports p50/p95 per frame besides ns/op: the target is a p95 < 4 ms.

func benchApp(b *testing.B, w, h, items int) (*App, func(lines ...string)) {
	b.Helper()
	scr := tcell.NewSimulationScreen("UTF-8")
	if err := scr.Init(); err != nil {
		b.Fatal(err)
	}
	scr.SetSize(w, h)
	b.Cleanup(scr.Fini)
	a := newApp(Options{Clock: &manualClock{}, Port: &recorder{}, FPS: 60, Workspace: "/home/dev/src/wordcount"}, scr)
	feed := func(lines ...string) {
		var bt batch
		for _, l := range lines {
			r, err := port.Decode([]byte(l))
			if err != nil {
				b.Fatalf("bad record %s: %v", l, err)
			}
			bt.records = append(bt.records, r)
		}
		a.wake(bt)
	}
	a.begin()
	feed(`{"v":1,"type":"ack","re":"1","data":{"cursor":0,"running":{"session":"","task":"","attempt":"","trace":""},"seqs":{},"tasks":[]}}`,
		`{"v":1,"type":"ack","re":"2","data":{"settings":[{"key":"agent.model","value":"coder"},{"key":"models.coder.model","value":"sim"}]}}`)
	for _, r := range "fix the test" {
		a.wake(batch{events: []tcell.Event{tcell.NewEventKey(tcell.KeyRune, r, tcell.ModNone)}})
	}
	a.wake(batch{events: []tcell.Event{tcell.NewEventKey(tcell.KeyEnter, 0, tcell.ModNone)}})
	feed(`{"v":1,"type":"ack","re":"3","data":{"state":"starting"}}`,
		ev(1, "session.created", "", `{"title":"fix the test"}`), ev(2, "task.created", "", `{"request":"fix the test"}`),
		ev(3, "task.state", "", `{"from":"ready","to":"running"}`))
	var recs []string
	for i := 0; i < items; i++ {
		content := fmt.Sprintf(`"## step %d\n\nThe **word count** splits on spaces; item %d of the history.\n\n- read src/lib.rs\n- run cargo test"`, i, i)
		if i%10 == 0 {
			content = fmt.Sprintf(`"Code for %d:\n\n`+"```rust"+`\nfn word_count(text: &str) -> usize {\n    text.split_whitespace().count()\n}\n`+"```"+`"`, i)
		}
		recs = append(recs, ev(10+i, "message", "", `{"role":"assistant","content":`+content+`}`))
		if len(recs) == 500 {
			feed(recs...)
			recs = recs[:0]
		}
	}
	feed(recs...)
	return a, feed
}

func reportPercentiles(b *testing.B, d []time.Duration) {
	slices.Sort(d)
	at := func(q float64) float64 {
		return float64(d[min(len(d)-1, int(float64(len(d))*q))].Microseconds()) / 1000
	}
	b.ReportMetric(at(0.50), "p50-ms")
	b.ReportMetric(at(0.95), "p95-ms")
}

// A full frame: every region redrawn (what a resize, scroll or expand costs).
func BenchmarkRenderFull160x50With10kItems(b *testing.B) {
	a, _ := benchApp(b, 160, 50, 10000)
	d := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		a.dirty.all = true
		a.render()
		d = append(d, time.Since(t0))
	}
	reportPercentiles(b, d)
}

// One streamed delta applied and drawn, the common frame while a task runs.
func BenchmarkRenderDelta160x50With10kItems(b *testing.B) {
	a, feed := benchApp(b, 160, 50, 10000)
	d := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		feed(delta("more words streamed in "))
		d = append(d, time.Since(t0))
	}
	_ = a
	reportPercentiles(b, d)
}
