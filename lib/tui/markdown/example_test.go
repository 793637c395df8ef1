package markdown_test

import (
	"fmt"
	"strings"

	"github.com/josecorral/fluzo/lib/tui/markdown"
	"github.com/josecorral/fluzo/lib/tui/text"
)

// The app keeps a Renderer for the message being streamed and renders it
// again on every delta; blocks that did not change are reused.
func ExampleRenderer() {
	var r markdown.Renderer
	msg := "## Plan\n\n- read `src/lib.rs`\n- fix the operator\n\n```rust\na + b\n```\n"
	r.Render(msg, 40)
	res := r.Render(msg+"\nDone", 40)
	for _, l := range strings.Split(strings.TrimSuffix(text.DumpText(res.Lines), "\n"), "\n") {
		fmt.Println(strings.TrimRight(l, " "))
	}
	b := res.Blocks[0]
	fmt.Printf("code block: rows %d-%d, %s, %q\n", b.StartLine, b.EndLine, b.Lang, b.Code)
	// Output:
	// Plan
	//
	// • read src/lib.rs
	// • fix the operator
	//
	//   a + b
	//
	// Done
	// code block: rows 5-6, rust, "a + b"
}
