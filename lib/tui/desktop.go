package tui

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/gdamore/tcell/v2"
)

// Desktop notifications (PRD §29.3): opt-in (tui.notifications.
// desktop_enabled), only for a task completed, blocked on input or failed,
// and only while the terminal is known to be unfocused — a focus-out was
// seen and no focus-in since (focus.go); a terminal that never reports
// focus counts as focused, so it never gets one. The text is a fixed
// template with the task's short id: no prompt, code, command or path.
// They are written to the terminal after the frame's Show, outside it,
// so they never split a frame's escape sequences.

type deskKind uint8

const (
	deskNone deskKind = iota
	deskCompleted
	deskBlocked
	deskFailed
)

var deskTitles = map[deskKind]string{
	deskCompleted: "Fluzo: task completed",
	deskBlocked:   "Fluzo: task blocked on input",
	deskFailed:    "Fluzo: task failed",
}

// protocol is how a terminal takes a notification.
type protocol uint8

const (
	protoBell   protocol = iota // no known notification sequence: BEL
	protoOSC777                 // ESC ] 777 ; notify ; title ; body ST (Ghostty, WezTerm, foot)
	protoOSC99                  // ESC ] 99 ; metadata ; payload ST (kitty)
	protoOSC9                   // ESC ] 9 ; message ST (iTerm2, ConEmu)
)

// desktopProtocol picks the notification sequence from what the
// environment says the terminal is. A multiplexer swallows or misroutes
// OSC sequences it does not know, so inside one only the bell is safe.
func desktopProtocol(getenv func(string) string) protocol {
	term, prog := getenv("TERM"), getenv("TERM_PROGRAM")
	switch {
	case getenv("TMUX") != "" || getenv("STY") != "" || strings.HasPrefix(term, "screen") || strings.HasPrefix(term, "tmux"):
		return protoBell
	case getenv("KITTY_WINDOW_ID") != "" || term == "xterm-kitty":
		return protoOSC99
	case prog == "ghostty" || term == "xterm-ghostty" || prog == "WezTerm" || term == "foot" || strings.HasPrefix(term, "foot-"):
		return protoOSC777
	case prog == "iTerm.app" || getenv("ConEmuPID") != "" || getenv("ConEmuANSI") == "ON":
		return protoOSC9
	}
	return protoBell
}

// desktop queues the notifications of one wake and writes them after its
// frame.
type desktop struct {
	enabled bool
	proto   protocol
	out     io.Writer // the terminal (tcell's tty); nil: nowhere to write
	pending []string
	sent    int
}

func newDesktop(scr tcell.Screen) desktop {
	d := desktop{proto: desktopProtocol(os.Getenv)}
	if tty, ok := scr.Tty(); ok && tty != nil {
		d.out = tty
	}
	return d
}

func (d *desktop) queue(k deskKind, task string) {
	if !d.enabled || d.out == nil {
		return
	}
	d.sent++
	d.pending = append(d.pending, d.sequence(k, task))
}

// flush writes what the wake queued, in one write after Show.
func (d *desktop) flush() {
	if len(d.pending) == 0 {
		return
	}
	seq := strings.Join(d.pending, "")
	d.pending = d.pending[:0]
	io.WriteString(d.out, seq) // a terminal that went away has nothing to show
}

// sequence is the notification for k in the terminal's protocol.
func (d *desktop) sequence(k deskKind, task string) string {
	title := deskText(deskTitles[k])
	body := deskText("task " + shortTask(task))
	if task == "" {
		body = "the current task"
	}
	const st = "\x1b\\"
	switch d.proto {
	case protoOSC777:
		return "\x1b]777;notify;" + title + ";" + body + st
	case protoOSC99:
		id := fmt.Sprintf("fluzo%d", d.sent)
		return "\x1b]99;i=" + id + ":d=0;" + title + st + "\x1b]99;i=" + id + ":d=1:p=body;" + body + st
	case protoOSC9:
		return "\x1b]9;" + title + " - " + body + st
	}
	return "\a"
}

// deskText passes the shared sanitizer, then keeps only the characters a
// notification's fixed template uses: no control byte, no ';' that would
// end an OSC field, nothing a terminal could take for a sequence.
func deskText(s string) string {
	s = safeLine(s)
	var b strings.Builder
	for _, r := range s {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune(" _-.:", r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}
