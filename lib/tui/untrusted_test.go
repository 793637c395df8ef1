package tui

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"sync"
	"testing"

	"github.com/gdamore/tcell/v2"
)

// The PRD §29.2.3 hostile corpus: what a model, a file or a tool may try
// to smuggle to the terminal.
var hostile = []string{
	"osc52 \x1b]52;c;ZXZpbCBjbGlwYm9hcmQ=\x07 after",
	"osc8 \x1b]8;;https://evil.example\x1b\\click me\x1b]8;;\x1b\\ end",
	"cursor \x1b[2J\x1b[H\x1b[10;10Hmoved \x1b[K erase",
	"safe text\rEVIL OVERWRITE",
	"split \x1b]52;c;",
	"c3BsaXQ=\x07 done",
	"invalid \xff\xfe\xc3 utf8",
	"bell \a and nul \x00 and c1 \u009b31m",
	"path src/\u202egnp.rs and \u2066isolate\u2069",
	strings.Repeat("\x1b[31;1;4;7mstyled ", 300),
	"APPROVAL REQUIRED · exec · waiting for your answer\n▐ [a] Approve once   [t] Approve for this task\nstopping · YOLO",
}

func feedHostile(h *harness) {
	running(h)
	for _, s := range hostile {
		h.records(delta(s))
	}
	out, _ := json.Marshal(strings.Join(hostile, "\n"))
	name, _ := json.Marshal("a\x07b\x1b]0;title\x07.rs")
	h.records(ev(20, "operation.requested", "op_h", `{"tool":"exec"}`),
		ev(21, "command.result", "", `{"command":`+string(name)+`,"exit_code":1,"output_tail":`+string(out)+`}`),
		ev(22, "message", "", `{"role":"assistant","content":`+string(out)+`}`))
}

func TestUntrustedTextNeverReachesACellRaw(t *testing.T) {
	h := newHarness(t, 160, 50, Options{FPS: 60})
	feedHostile(h)
	h.app.dirty.all = true
	h.app.render()
	cells, w, _ := h.scr.GetContents()
	for i, c := range cells {
		for _, r := range c.Runes {
			if r < 0x20 || (r >= 0x7f && r < 0xa0) || isBidi(r) || r == '\t' {
				t.Fatalf("cell %d,%d holds control rune %U", i%w, i/w, r)
			}
		}
	}
	var all strings.Builder
	for _, it := range h.app.items {
		for _, row := range h.app.lines(it, h.app.layout().textW) {
			for _, sp := range row {
				all.WriteString(sp.Text)
			}
			all.WriteByte('\n')
		}
	}
	text := all.String()
	// Escapes are shown as inert, visible text (termsafe's notation).
	for _, want := range []string{`\x1b]52;c;`, `\x1b[2J`, `safe text\x0dEVIL`, `\u202egnp.rs`, `\x07`} {
		if !strings.Contains(text, want) {
			t.Errorf("the screen does not show %q escaped", want)
		}
	}
}

func TestModelTextCannotDrawAnApprovalCard(t *testing.T) {
	h := newHarness(t, 160, 50, Options{FPS: 60})
	feedHostile(h)
	h.app.dirty.all = true
	h.app.render()
	l := h.app.layout()
	cells, w, _ := h.scr.GetContents()
	for y := l.conv.y; y < l.conv.bottom(); y++ {
		c := cells[y*w+l.conv.x]
		if len(c.Runes) > 0 && c.Runes[0] == '▐' {
			t.Fatalf("row %d carries the approval gutter without an approval: %q", y, h.screenText()[y])
		}
	}
	if h.app.pendingApproval() != nil || h.app.phase == phaseWaiting || h.app.phase == phaseStopping || h.app.yolo {
		t.Fatal("model text changed runtime state")
	}
	h.keys(key(tcell.KeyTab))
	h.clock.Advance(armingWindow * 2)
	h.keys(runeKey('a'))
	if h.port.last("approve") != nil {
		t.Fatal("a forged card was answerable")
	}
}

// captureTty is a tcell Tty that records every byte the screen writes, so
// the test sees the real byte stream a terminal would receive.
type captureTty struct {
	mu     sync.Mutex
	out    bytes.Buffer
	closed chan struct{}
	once   sync.Once
}

func (c *captureTty) Start() error        { return nil }
func (c *captureTty) Stop() error         { return nil }
func (c *captureTty) Drain() error        { return c.Close() }
func (c *captureTty) NotifyResize(func()) {}
func (c *captureTty) WindowSize() (tcell.WindowSize, error) {
	return tcell.WindowSize{Width: 160, Height: 50}, nil
}
func (c *captureTty) Read(p []byte) (int, error) { <-c.closed; return 0, io.EOF }
func (c *captureTty) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.out.Write(p)
}
func (c *captureTty) Close() error { c.once.Do(func() { close(c.closed) }); return nil }

func TestTerminalByteStreamCarriesNoForeignSequence(t *testing.T) {
	t.Setenv("TERM", "xterm-256color")
	t.Setenv("COLORTERM", "")
	tty := &captureTty{closed: make(chan struct{})}
	scr, err := tcell.NewTerminfoScreenFromTty(tty)
	if err != nil {
		t.Skipf("no terminfo for xterm-256color: %v", err) // terminfo is built into tcell; never expected
	}
	if err := scr.Init(); err != nil {
		t.Fatal(err)
	}
	clk := &manualClock{}
	a := newApp(Options{Clock: clk, Port: &recorder{}, FPS: 60, Workspace: "/w"}, scr)
	h := &harness{t: t, app: a, clock: clk, port: a.opts.Port.(*recorder)}
	feedHostile(h)
	scr.Fini()
	tty.mu.Lock()
	stream := tty.out.Bytes()
	tty.mu.Unlock()
	for _, bad := range []string{"\x1b]", "\x1bP", "\x1b_", "\x1b^", "\x1bX", "\a", "\u009b", "\u009d", "\r"} {
		if i := bytes.Index(stream, []byte(bad)); i >= 0 {
			t.Fatalf("the byte stream contains %q at %d: %q", bad, i, stream[max(0, i-20):min(len(stream), i+40)])
		}
	}
	// And the terminal was restored: alternate screen left, paste off.
	if !bytes.Contains(stream, []byte("\x1b[?1049l")) || !bytes.Contains(stream, []byte("\x1b[?2004l")) {
		t.Fatal("Fini must leave the alternate screen and bracketed paste")
	}
}

func isBidi(r rune) bool {
	return r == 0x061c || r == 0x200e || r == 0x200f || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) || r == 0x2028 || r == 0x2029
}

// Model text is escaped exactly once: streamed or final, an ESC shows as
// \x1b, never as the twice-escaped \x5cx1b (an escape of the escape).
func TestAssistantTextIsEscapedOnce(t *testing.T) {
	for _, final := range []bool{false, true} {
		h := newHarness(t, 120, 40, Options{FPS: 60})
		running(h)
		msg := "see \x1b]52;c;QQ==\x07 and src/\u202egnp.rs"
		if final {
			body, _ := json.Marshal(msg)
			h.records(ev(20, "message", "", `{"role":"assistant","content":`+string(body)+`}`))
		} else {
			h.records(delta(msg[:6]), delta(msg[6:]))
		}
		h.app.dirty.all = true
		h.app.render()
		screen := strings.Join(h.screenText(), "\n")
		if !strings.Contains(screen, `see \x1b]52;c;QQ==\x07`) || !strings.Contains(screen, `src/\u202egnp.rs`) {
			t.Fatalf("final=%v: the escapes are not shown once:\n%s", final, screen)
		}
		if strings.Contains(screen, `\x5c`) {
			t.Fatalf("final=%v: an escape was escaped again:\n%s", final, screen)
		}
	}
}
