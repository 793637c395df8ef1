package agent

import (
	"encoding/json"
	"fmt"
	"io"
	"sync"

	lagent "github.com/josecorral/fluzo/lib/agent"
	"github.com/josecorral/fluzo/lib/core"
)

// printer writes a run's records: every durable event and live update as
// one JSON line with --json, or one short human line per durable event
// otherwise. The result record is always JSON, last.
type printer struct {
	mu   sync.Mutex
	w    io.Writer
	json bool
}

func (p *printer) emit(v any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.json {
		line, err := json.Marshal(v)
		if err == nil {
			p.w.Write(append(line, '\n'))
		}
		return
	}
	if ev, ok := v.(core.Event); ok {
		fmt.Fprintf(p.w, "%4d %-22s %s\n", ev.Seq, ev.Type, eventDetail(ev))
	}
}

// eventDetail is a one-line, terminal-safe summary of an event's data.
func eventDetail(ev core.Event) string {
	var d map[string]any
	json.Unmarshal(ev.Data, &d)
	var out string
	for _, k := range []string{"tool", "to", "state", "verdict", "decision", "rule", "command", "exit_code", "verification", "reason", "purpose", "outcome"} {
		if v, ok := d[k]; ok && v != nil && v != "" {
			out += fmt.Sprintf("%s=%v ", k, v)
		}
	}
	if c, ok := d["content"].(string); ok && c != "" {
		if r := []rune(c); len(r) > 100 {
			c = string(r[:100]) + "..."
		}
		out += fmt.Sprintf("%q", c)
	}
	return sanitize(out)
}

// sanitize drops control characters so untrusted text never reaches the
// terminal as escape sequences.
func sanitize(s string) string {
	b := []rune{}
	for _, r := range s {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
			r = '?'
		}
		b = append(b, r)
	}
	return string(b)
}

func (p *printer) result(r lagent.Result) {
	p.mu.Lock()
	defer p.mu.Unlock()
	line, _ := json.Marshal(r)
	p.w.Write(append(line, '\n'))
}
