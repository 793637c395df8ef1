package cards_test

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/josecorral/fluzo/lib/tui/cards"
	"github.com/josecorral/fluzo/lib/tui/text"
)

// The app keeps one Op per operation, applies each port event to it and
// re-renders the card (at the conversation's width, collapsed unless the
// person expanded it).
func ExampleRender() {
	var op cards.Op
	_ = op.ApplyEvent("operation.requested", json.RawMessage(`{"tool":"exec","call_id":"c1","state":"requested"}`))
	_ = op.ApplyEvent("permission.requested", json.RawMessage(`{"operation":"op_1","tool":"exec","args":{"argv":["cargo","test"]},"rule":"ask:exec"}`))
	show(cards.Render(op, cards.Options{Width: 50}))
	_ = op.ApplyEvent("operation.result", json.RawMessage(`{"tool":"exec","from":"dispatched","to":"succeeded"}`))
	op.Result = json.RawMessage(`{"ok":true,"result":{"exit_code":101,"duration_ms":2300,"stdout":"test regression ... FAILED\n"}}`)
	show(cards.Render(op, cards.Options{Width: 50, ASCII: true}))
	// Output:
	// ● exec cargo test · waiting for approval
	// [x] exec cargo test - exit 101 - 2.3s
	//   test regression ... FAILED
	//   exit 101
}

// show prints rows without the panel's padding.
func show(rows []text.Line) {
	for _, l := range strings.Split(strings.TrimSuffix(text.DumpText(rows), "\n"), "\n") {
		fmt.Println(strings.TrimRight(l, " "))
	}
}
