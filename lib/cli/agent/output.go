package agent

import (
	"encoding/json"
	"fmt"
	"io"
	"sync"

	lagent "github.com/josecorral/fluzo/lib/agent"
	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/termsafe"
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
		fmt.Fprintf(p.w, "%4d %-22s %s\n", ev.Seq, termsafe.Line(ev.Type), eventDetail(ev))
	}
}

// eventDetail is a one-line, terminal-safe summary of an event's data.
func eventDetail(ev core.Event) string {
	var d map[string]any
	json.Unmarshal(ev.Data, &d)
	var out string
	for _, k := range []string{"tool", "to", "state", "verdict", "decision", "rule", "command", "exit_code", "verification", "reason", "purpose", "outcome"} {
		if v, ok := d[k]; ok && v != nil && v != "" {
			out += k + "=" + termsafe.Line(fmt.Sprint(v)) + " "
		}
	}
	if c, ok := d["content"].(string); ok && c != "" {
		more := ""
		if head, cut := termsafe.Head(c, 100); cut {
			c, more = head, "..."
		}
		out += `"` + termsafe.Line(c) + `"` + more
	}
	return out
}

func (p *printer) result(r lagent.Result) {
	p.mu.Lock()
	defer p.mu.Unlock()
	line, _ := json.Marshal(r)
	if !p.json {
		// The same record, but read on a terminal: the summary and file
		// names are model and workspace text that encoding/json leaves raw.
		line = termsafe.JSON(line)
	}
	p.w.Write(append(line, '\n'))
}
