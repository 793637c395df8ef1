package tui

import (
	"strings"
	"testing"

	"github.com/josecorral/fluzo/lib/tui/theme"
)

// The compact header gives way in order: the cwd is shortened and cut,
// the ╱ fill shrinks to its minimum, and the labelled context value is
// kept or dropped whole (TUI-REFERENCE §3.2).
func TestCompactHeaderFitsLongPaths(t *testing.T) {
	cases := []struct {
		name, root string
		w          int
		opts       Options
		wantCtx    bool
		context    string
	}{
		{"four long components at 80", "/tmp/tmp.0tU3WICqax/alacritty-truecolor-80x24-streaming-hc/ws", 80, Options{Caps: theme.Caps{Depth: theme.TrueColor}}, true, ""},
		{"high-contrast at 80", "/tmp/tmp.0tU3WICqax/alacritty-truecolor-80x24-streaming-hc/ws", 80, Options{Theme: "high-contrast", Caps: theme.Caps{Depth: theme.TrueColor}}, true, ""},
		{"ascii at 80", "/tmp/tmp.0tU3WICqax/alacritty-truecolor-80x24-streaming-hc/ws", 80, Options{Caps: theme.Caps{Depth: theme.TrueColor, ASCII: true}}, true, ""},
		{"deep path at 60", "/home/dev/src/github.com/example/project/with/many/levels", 60, Options{Caps: theme.Caps{Depth: theme.TrueColor}}, true, ""},
		{"context too wide to keep at 60", "/home/dev/src/wordcount", 60, Options{Caps: theme.Caps{Depth: theme.TrueColor}}, false, "unknown (the runtime reports no usage yet)"},
		{"short path at 80", "/home/dev/src/wordcount", 80, Options{Caps: theme.Caps{Depth: theme.TrueColor}}, true, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.opts.Workspace = c.root
			h := newHarness(t, c.w, 24, c.opts)
			h.connect()
			if c.context != "" {
				h.app.info.context = c.context
			}
			h.app.dirty.all = true
			h.app.render()
			row := h.screenText()[1]
			fill := "╱╱╱"
			if c.opts.Caps.ASCII {
				fill = "///"
			}
			if !strings.HasPrefix(row, " FLUZO "+fill) {
				t.Errorf("header %q: the fill is not kept at its minimum %q", row, fill)
			}
			hasCtx := strings.HasSuffix(row, "• context unknown") || strings.HasSuffix(row, "* context unknown")
			if hasCtx != c.wantCtx {
				t.Errorf("header %q: context value shown=%v, want %v", row, hasCtx, c.wantCtx)
			}
			if c.context != "" && strings.Contains(row, c.context) {
				hasCtx = true
			}
			if strings.Contains(row, "context") && !hasCtx {
				t.Errorf("header %q: the context label lost its value", row)
			}
			if cellWidth(row) > c.w-1 {
				t.Errorf("header %q is %d cells, wider than %d", row, cellWidth(row), c.w-1)
			}
			if len(strings.Split(strings.Trim(c.root, "/"), "/")) > 4 && !strings.Contains(row, ".../") {
				t.Errorf("header %q: a path of more than 4 components is not shortened", row)
			}
		})
	}
}
