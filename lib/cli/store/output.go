package storecli

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/termsafe"
)

// record wraps a JSON object value as a JSONL record that starts with
// "v" and "type".
func record(typ string, v any) json.RawMessage {
	b, err := core.MarshalVerbatim(v)
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

// short trims text for a table cell: one line, at most n runes of the
// original text (cut before escaping, so no escape is cut in half).
func short(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if head, cut := termsafe.Head(s, n); cut {
		head, _ = termsafe.Head(head, n-1)
		return termsafe.Line(head) + "..."
	}
	return termsafe.Line(s)
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
