package testscripts

import (
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"
	"sync"

	"github.com/rogpeppe/go-internal/testscript"
)

func init() { register("events-ledger", eventsLedger) }

// portClient is what a port client holds: events by session and seq,
// from live lines and from the pages of events/subscribe acks. dropping
// simulates lost lines.
type portClient struct {
	mu       sync.Mutex
	dropping int
	held     map[string]map[int64]string
}

type portEvent struct {
	ID      string `json:"id"`
	Seq     int64  `json:"seq"`
	Type    string `json:"type"`
	Session string `json:"session"`
}

func (c *portClient) drop(n int) {
	c.mu.Lock()
	c.dropping += n
	c.mu.Unlock()
}

func (c *portClient) see(line string) {
	var rec struct {
		portEvent
		Data json.RawMessage `json:"data"`
	}
	if json.Unmarshal([]byte(line), &rec) != nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if rec.Type == "ack" {
		var page struct {
			Events []portEvent `json:"events"`
		}
		if json.Unmarshal(rec.Data, &page) == nil {
			for _, ev := range page.Events {
				c.hold(ev)
			}
		}
		return
	}
	if rec.Seq == 0 || rec.ID == "" {
		return // not an event: a result or a live update
	}
	if c.dropping > 0 {
		c.dropping--
		return
	}
	c.hold(rec.portEvent)
}

func (c *portClient) hold(ev portEvent) {
	if c.held[ev.Session] == nil {
		c.held[ev.Session] = map[int64]string{}
	}
	c.held[ev.Session][ev.Seq] = ev.ID + " " + ev.Type
}

// gap returns a session whose held seqs skip a number, and the last seq
// before the first skip.
func (c *portClient) gap() (string, int64, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for ses, seqs := range c.held {
		if ses == "" {
			continue
		}
		sorted := sortedSeqs(seqs)
		for i := 1; i < len(sorted); i++ {
			if sorted[i] != sorted[i-1]+1 {
				return ses, sorted[i-1], true
			}
		}
	}
	return "", 0, false
}

func (c *portClient) ledger(session string) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var b strings.Builder
	for _, s := range sortedSeqs(c.held[session]) {
		fmt.Fprintf(&b, "%d %s\n", s, c.held[session][s])
	}
	return b.String()
}

func sortedSeqs(m map[int64]string) []int64 {
	out := make([]int64, 0, len(m))
	for s := range m {
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// events-ledger IN OUT writes the events of a JSONL file (fluzo-store
// events output) as "seq id type" lines, for comparison with a port
// client's ledger.
func eventsLedger(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: events-ledger IN OUT")
	}
	var b strings.Builder
	for _, line := range strings.Split(ts.ReadFile(args[0]), "\n") {
		var ev portEvent
		if json.Unmarshal([]byte(line), &ev) != nil || ev.ID == "" {
			continue
		}
		fmt.Fprintf(&b, "%d %s %s\n", ev.Seq, ev.ID, ev.Type)
	}
	ts.Check(os.WriteFile(ts.MkAbs(args[1]), []byte(b.String()), 0o644))
}
