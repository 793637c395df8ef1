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
	// recovering is set while the owner opens: the events it emits then
	// are restart recovery's, about tasks an earlier owner left
	// interrupted, and the human lines must say so rather than read as
	// this run's own.
	recovering bool
}

// setRecovering marks the span of the owner's restart recovery.
func (p *printer) setRecovering(on bool) {
	p.mu.Lock()
	p.recovering = on
	p.mu.Unlock()
}

// recovered tells people which earlier tasks restart recovery closed and
// how to continue them; --json streams carry the recovery record instead.
func (p *printer) recovered(tasks []string) {
	if p.json {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, t := range tasks {
		fmt.Fprintf(p.w, "recovered task %s: it was interrupted when its owner stopped; '%s' continues it\n", termsafe.Line(t), core.ResumeCommand(termsafe.Line(t)))
	}
}

func (p *printer) emit(v any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.json {
		line, err := core.MarshalVerbatim(v)
		if err == nil {
			p.w.Write(append(line, '\n'))
		}
		return
	}
	if ev, ok := v.(core.Event); ok {
		label := ""
		if p.recovering {
			label = "recovery of task " + termsafe.Line(ev.Task) + ": "
		}
		fmt.Fprintf(p.w, "%4d %s%-22s %s\n", ev.Seq, label, termsafe.Line(ev.Type), eventDetail(ev))
	}
}

// eventDetail is a one-line, terminal-safe summary of an event's data.
func eventDetail(ev core.Event) string {
	var d map[string]any
	json.Unmarshal(ev.Data, &d)
	var out string
	for _, k := range []string{"tool", "to", "state", "verdict", "decision", "rule", "command", "exit_code", "verification", "reason", "purpose", "outcome", "branch"} {
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
	line, _ := core.MarshalVerbatim(r)
	if !p.json {
		// The same record, but read on a terminal: the summary and file
		// names are model and workspace text that encoding/json leaves raw.
		line = termsafe.JSON(line)
	}
	p.w.Write(append(line, '\n'))
}
