package storecli

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"unicode"

	"github.com/josecorral/fluzo/lib/core"
)

// record wraps a JSON object value as a JSONL record that starts with
// "v" and "type".
func record(typ string, v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil || len(b) < 2 || b[0] != '{' {
		b = []byte("{}")
	}
	head := fmt.Sprintf(`{"v":%d,"type":%q`, core.WireVersion, typ)
	if len(b) == 2 {
		return json.RawMessage(head + "}")
	}
	return json.RawMessage(head + "," + string(b[1:]))
}

// jsonl writes one compact JSON object per line.
type jsonl struct {
	w   *bufio.Writer
	enc *json.Encoder
}

func newJSONL(w io.Writer) *jsonl {
	bw := bufio.NewWriterSize(w, 64<<10)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	return &jsonl{w: bw, enc: enc}
}

func (j *jsonl) put(v any) error { return j.enc.Encode(v) }
func (j *jsonl) flush() error    { return j.w.Flush() }

// clean makes untrusted text safe for a terminal: control characters
// (including ESC and C1 controls) are shown escaped, never emitted raw.
func clean(s string) string {
	if !strings.ContainsFunc(s, isControl) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if isControl(r) {
			fmt.Fprintf(&b, "\\x%02x", r)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

func isControl(r rune) bool {
	return unicode.IsControl(r) || r == '\u2028' || r == '\u2029' || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069)
}

// short trims text for a table cell.
func short(s string, n int) string {
	s = clean(strings.Join(strings.Fields(s), " "))
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "..."
	}
	return s
}

// table writes aligned columns.
type table struct{ tw *tabwriter.Writer }

func newTable(w io.Writer, header ...string) *table {
	t := &table{tw: tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)}
	t.row(header...)
	return t
}

func (t *table) row(cells ...string) { fmt.Fprintln(t.tw, strings.Join(cells, "\t")) }
func (t *table) flush() error        { return t.tw.Flush() }
