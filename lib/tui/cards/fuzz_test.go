package cards

import (
	"encoding/json"
	"testing"

	"github.com/josecorral/fluzo/lib/tui/text"
)

// FuzzRender: any tool, arguments, result and state give a card without
// panicking, every row within the width and nothing a terminal acts on.
func FuzzRender(f *testing.F) {
	for _, fx := range fixtures {
		f.Add(fx.op.Tool, fx.op.State, []byte(fx.op.Args), []byte(fx.op.Result), 40, false)
	}
	f.Fuzz(func(t *testing.T, tool, state string, args, result []byte, width int, expanded bool) {
		if width < 4 || width > 300 {
			return
		}
		op := Op{Tool: tool, State: state, Args: json.RawMessage(args), Result: json.RawMessage(result)}
		for _, ascii := range []bool{false, true} {
			rows := Render(op, Options{Width: width, ASCII: ascii, Expanded: expanded})
			if len(rows) == 0 {
				t.Fatal("no rows")
			}
			for i, l := range rows {
				if w := text.LineWidth(l); w > width {
					t.Fatalf("row %d is %d wide, limit %d: %q", i, w, width, l)
				}
				for _, sp := range l {
					if r := unsafeRune(sp.Text); r >= 0 {
						t.Fatalf("row %d holds %U: %q", i, r, sp.Text)
					}
				}
			}
		}
	})
}
