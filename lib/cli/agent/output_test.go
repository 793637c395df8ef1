package agent

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	lagent "github.com/josecorral/fluzo/lib/agent"
	"github.com/josecorral/fluzo/lib/core"
)

func TestHumanEventLinesNeverCarryControlSequences(t *testing.T) {
	var b bytes.Buffer
	p := &printer{w: &b}
	data, _ := json.Marshal(map[string]any{"content": "done \x1b[2J\x1b]0;pwned\x07 now", "purpose": "turn", "command": "cargo\x1b[31m test"})
	p.emit(core.Event{Seq: 7, Type: "message", Data: data})
	p.emit(map[string]any{"type": "live.delta"}) // live records are JSON-only
	line := b.String()
	if strings.ContainsAny(line, "\x1b\x07") || !strings.Contains(line, "message") || strings.Count(line, "\n") != 1 {
		t.Fatalf("unsafe or wrong line: %q", line)
	}
}

// The --json stream and the result record carry code as written: "<",
// ">" and "&" are not turned into \u003c escapes.
func TestJSONStreamKeepsCodeVerbatim(t *testing.T) {
	var b bytes.Buffer
	p := &printer{w: &b, json: true}
	p.emit(core.Event{Seq: 1, Type: "command.result", Data: json.RawMessage(`{"output_tail":"if i < n && p != nil {}"}`)})
	p.result(lagent.Result{V: 1, Type: "result", Status: "completed", Summary: "fixed a < b && c > d"})
	out := b.String()
	if !strings.Contains(out, "if i < n && p != nil {}") || !strings.Contains(out, "fixed a < b && c > d") || strings.Contains(out, `\u00`) {
		t.Fatalf("escaped output: %s", out)
	}
}
