package tui

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"
	"github.com/josecorral/fluzo/lib/tui/theme"
)

var update = flag.Bool("update", false, "rewrite the snapshot goldens in testdata/")

// states scripts every designed state (PRD §29.1) from port records, so
// the snapshots need no agent.
var states = []struct {
	name   string
	script func(h *harness)
}{
	{"loading", func(h *harness) { h.app.begin() }},
	{"empty", func(h *harness) { h.connect() }},
	{"streaming", func(h *harness) {
		running(h)
		h.records(delta("## Plan\n\nThe test fails because `count` skips the last word.\n\n- read src/lib.rs\n- fix the loop\n\n```rust\nfn count(s: &str) -> usize {\n    s.split_whitespace().count()\n}\n```\n"),
			ev(4, "operation.requested", "op_1", `{"tool":"exec"}`),
			ev(5, "command.result", "", `{"command":"cargo test","exit_code":101,"output_tail":"running 3 tests\ntest a ... ok\ntest b ... ok\ntest c ... FAILED\n1\n2\n3\n4\n5\n6\n7\n8\nfailures: 1"}`),
			ev(6, "operation.result", "op_1", `{"to":"failed"}`),
			delta("Now the fix"))
	}},
	{"waiting", func(h *harness) {
		running(h)
		h.records(ev(4, "operation.requested", "op_7", `{"tool":"exec"}`), ev(5, "permission.requested", "", permExec))
	}},
	{"blocked", func(h *harness) {
		running(h)
		h.records(`{"v":1,"type":"result","status":"budget_exhausted","reason":"max_turns","task":"tsk_1","verification":{"completed":false,"verification":"not_run"}}`)
	}},
	{"cancelled", func(h *harness) {
		running(h)
		h.keys(key(tcell.KeyCtrlC))
		h.records(`{"v":1,"type":"result","status":"cancelled","reason":"cancelled","task":"tsk_1","verification":{"completed":false,"verification":"not_run"}}`)
	}},
	{"failed", func(h *harness) {
		running(h)
		h.records(`{"v":1,"type":"result","status":"provider_error","task":"tsk_1","verification":{"completed":false,"verification":"not_run"},"error":{"code":"provider_error","message":"the model endpoint answered 401","hint":"check models.coder.api_key_env"}}`)
	}},
	{"interrupted", func(h *harness) {
		h.app.begin()
		h.records(`{"v":1,"type":"ack","re":"1","data":{"cursor":9,"running":{"session":"","task":"","attempt":"","trace":""},"seqs":{"ses_1":5},"tasks":[{"id":"tsk_1","session":"ses_1","request":"fix the test","state":"interrupted","reason":"interrupted"}]}}`)
		// The history page of the interrupted session, as the port answers it.
		h.ack(`{"events":[` + strings.Join([]string{ev(1, "session.created", "", `{"title":"fix the test"}`), ev(2, "task.created", "", `{"request":"fix the test"}`),
			ev(3, "message", "", `{"role":"assistant","content":"I will run the tests first."}`), ev(4, "operation.requested", "op_1", `{"tool":"exec"}`),
			ev(5, "permission.requested", "", `{"operation":"op_1","tool":"exec","args":{"argv":["cargo","test"]},"rule":"policy.shell=ask"}`)}, ",") + `],"next":5,"more":false}`)
	}},
	{"completed", func(h *harness) {
		running(h)
		h.records(delta("Fixed the off-by-one in `count`."),
			ev(8, "message", "", `{"role":"assistant","content":"Fixed the off-by-one in `+"`count`"+`."}`),
			`{"v":1,"type":"result","status":"completed","task":"tsk_1","verification":{"completed":true,"verification":"passed","evidence":{"command":"cargo test","exit_code":0}},"diff":{"type":"diff_summary","pre_existing":["notes.txt"],"changed":[{"path":"src/lib.rs","kind":"modified","added":4,"removed":1},{"path":"notes.txt","kind":"modified","pre_existing":true}]}}`)
	}},
	{"busy", func(h *harness) { h.app.begin(); h.app.wake(batch{lost: busyLost()}) }},
}

var sizes = [][2]int{{60, 16}, {80, 24}, {120, 40}, {160, 50}, {240, 80}}

var variants = []struct {
	name string
	opts Options
}{
	{"default", Options{Caps: theme.Caps{Depth: theme.TrueColor}}},
	{"high-contrast", Options{Theme: "high-contrast", Caps: theme.Caps{Depth: theme.TrueColor}}},
	{"16-colour", Options{Caps: theme.Caps{Depth: theme.Color16}}},
	{"no-color", Options{Caps: theme.Caps{Depth: theme.NoColor}}},
	{"ascii", Options{Caps: theme.Caps{Depth: theme.TrueColor, ASCII: true}}},
}

func TestSnapshots(t *testing.T) {
	for _, st := range states {
		for _, sz := range sizes {
			for _, v := range variants {
				name := fmt.Sprintf("%s-%dx%d-%s", st.name, sz[0], sz[1], v.name)
				t.Run(name, func(t *testing.T) {
					opts := v.opts
					opts.FPS = 0 // snapshots are static frames
					h := newHarness(t, sz[0], sz[1], opts)
					st.script(h)
					h.app.dirty.all = true
					h.app.render()
					checkGolden(t, filepath.Join("testdata", "snapshots", name+".txt"), snapshot(h))
				})
			}
		}
	}
}

// snapshot renders the cell buffer as its text, then each row's styles
// run-length encoded against a legend, so a golden shows both what is
// written and how it looks.
func snapshot(h *harness) string {
	cells, w, hh := h.scr.GetContents()
	var b strings.Builder
	for _, row := range h.screenText() {
		b.WriteString(row + "\n")
	}
	b.WriteString("--- styles ---\n")
	legend := map[tcell.Style]byte{}
	var order []tcell.Style
	keyOf := func(s tcell.Style) byte {
		k, ok := legend[s]
		if !ok {
			k = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"[len(order)%62]
			legend[s] = k
			order = append(order, s)
		}
		return k
	}
	for y := 0; y < hh; y++ {
		var runs []string
		prev, n := byte(0), 0
		for x := 0; x < w; x++ {
			k := keyOf(cells[y*w+x].Style)
			if k != prev && n > 0 {
				runs = append(runs, fmt.Sprintf("%c%d", prev, n))
				n = 0
			}
			prev = k
			n++
		}
		runs = append(runs, fmt.Sprintf("%c%d", prev, n))
		fmt.Fprintf(&b, "%02d %s\n", y, strings.Join(runs, " "))
	}
	b.WriteString("--- legend ---\n")
	for _, s := range order {
		fg, bg, attr := s.Decompose()
		fmt.Fprintf(&b, "%c fg=%s bg=%s attr=%d\n", legend[s], colourName(fg), colourName(bg), attr)
	}
	return b.String()
}

func colourName(c tcell.Color) string {
	if c == tcell.ColorDefault {
		return "default"
	}
	if c.IsRGB() {
		return fmt.Sprintf("#%06x", c.Hex())
	}
	return fmt.Sprintf("%d", c-tcell.ColorValid)
}

func checkGolden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%s: %v (run go test ./lib/tui -run TestSnapshots -update)", path, err)
	}
	if string(want) != got {
		t.Errorf("%s differs from the rendered frame; rerun with -update after checking:\n%s", path, got)
	}
}
