package tui

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/josecorral/fluzo/lib/port"
)

// recorder is the test Sender: it keeps every command the app sends.
type recorder struct {
	mu   sync.Mutex
	sent []map[string]any
	n    int
}

func (r *recorder) Send(cmd string, args port.Args) (string, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.n++
	m := map[string]any{"cmd": cmd}
	for k, v := range args {
		m[k] = v
	}
	r.sent = append(r.sent, m)
	return fmt.Sprint(r.n), nil
}

func (r *recorder) cmds() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for _, m := range r.sent {
		out = append(out, m["cmd"].(string))
	}
	return out
}

func (r *recorder) last(cmd string) map[string]any {
	r.mu.Lock()
	defer r.mu.Unlock()
	for i := len(r.sent) - 1; i >= 0; i-- {
		if r.sent[i]["cmd"] == cmd {
			return r.sent[i]
		}
	}
	return nil
}

type harness struct {
	t     *testing.T
	app   *App
	scr   tcell.SimulationScreen
	clock *manualClock
	port  *recorder
}

func newHarness(t *testing.T, w, h int, opts Options) *harness {
	t.Helper()
	scr := tcell.NewSimulationScreen("UTF-8")
	if err := scr.Init(); err != nil {
		t.Fatal(err)
	}
	scr.SetSize(w, h)
	t.Cleanup(scr.Fini)
	clk := &manualClock{}
	rec := &recorder{}
	opts.Clock, opts.Port = clk, rec
	if opts.Workspace == "" {
		opts.Workspace = "/home/dev/src/wordcount"
	}
	a := newApp(opts, scr)
	return &harness{t: t, app: a, scr: scr, clock: clk, port: rec}
}

// connect plays the subscribe and settings answers of an idle workspace.
func (h *harness) connect() {
	h.app.begin()
	h.records(
		`{"v":1,"type":"ack","re":"1","data":{"cursor":0,"running":{"session":"","task":"","attempt":"","trace":""},"seqs":{},"tasks":[]}}`,
		`{"v":1,"type":"ack","re":"2","data":{"settings":[{"key":"agent.model","value":"coder"},{"key":"models.coder.model","value":"sim"}]}}`,
	)
}

// records feeds port lines as one wake.
func (h *harness) records(lines ...string) {
	h.t.Helper()
	var b batch
	for _, l := range lines {
		r, err := port.Decode([]byte(l))
		if err != nil {
			h.t.Fatalf("bad scripted record %s: %v", l, err)
		}
		b.records = append(b.records, r)
	}
	h.app.wake(b)
}

// ack answers the app's latest command with data.
func (h *harness) ack(data string) {
	h.records(fmt.Sprintf(`{"v":1,"type":"ack","re":"%d","data":%s}`, h.port.n, data))
}

func (h *harness) keys(evs ...tcell.Event) { h.app.wake(batch{events: evs}) }

func key(k tcell.Key) *tcell.EventKey { return tcell.NewEventKey(k, 0, tcell.ModNone) }

func runeKey(r rune) *tcell.EventKey { return tcell.NewEventKey(tcell.KeyRune, r, tcell.ModNone) }

func typed(s string) []tcell.Event {
	var out []tcell.Event
	for _, r := range s {
		out = append(out, runeKey(r))
	}
	return out
}

func pasted(s string) []tcell.Event {
	out := []tcell.Event{tcell.NewEventPaste(true)}
	for _, r := range s {
		if r == '\n' {
			out = append(out, key(tcell.KeyEnter))
		} else {
			out = append(out, runeKey(r))
		}
	}
	return append(out, tcell.NewEventPaste(false))
}

// screenText is the visible text, one string per row.
func (h *harness) screenText() []string {
	cells, w, hh := h.scr.GetContents()
	rows := make([]string, hh)
	for y := 0; y < hh; y++ {
		var b strings.Builder
		for x := 0; x < w; x++ {
			c := cells[y*w+x]
			if len(c.Runes) == 0 {
				b.WriteByte(' ')
				continue
			}
			b.WriteString(string(c.Runes))
		}
		rows[y] = strings.TrimRight(b.String(), " ")
	}
	return rows
}

func (h *harness) contains(s string) bool {
	return strings.Contains(strings.Join(h.screenText(), "\n"), s)
}

func (h *harness) mustShow(s string) {
	h.t.Helper()
	if !h.contains(s) {
		h.t.Fatalf("screen does not show %q:\n%s", s, strings.Join(h.screenText(), "\n"))
	}
}

func ev(seq int, typ, op, data string) string {
	opField := ""
	if op != "" {
		opField = `,"operation":"` + op + `"`
	}
	return fmt.Sprintf(`{"v":1,"id":"evt_%d","seq":%d,"ts":"2026-12-01T18:00:00Z","type":"%s","session":"ses_1","task":"tsk_1","attempt":"att_1"%s,"data":%s}`, seq, seq, typ, opField, data)
}

func delta(text string) string {
	b, _ := json.Marshal(map[string]any{"v": 1, "type": "live.delta", "task": "tsk_1", "kind": "content", "text": text})
	return string(b)
}

var _ = time.Millisecond

type portRecord = port.Record

func mustDecode(line string) port.Record {
	r, err := port.Decode([]byte(line))
	if err != nil {
		panic(err)
	}
	return r
}
