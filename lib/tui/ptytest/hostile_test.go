package ptytest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"testing"
	"time"
)

// The §29.2.3 corpus as model output: each entry tries to reach the
// terminal as a control sequence. JSON cannot carry invalid UTF-8, so
// that part of the corpus stays with the sanitizer's unit tests.
var hostileCorpus = []string{
	"clipboard \x1b]52;c;cHduZWQ=\x07 grab",                          // OSC 52 write
	"link \x1b]8;;http://evil.invalid/\x1b\\click\x1b]8;;\x1b\\ end", // OSC 8
	"title \x1b]0;pwned\x07 set",                                     // OSC 0
	"wipe \x1b[2J\x1b[H home",                                        // erase + cursor home
	"move \x1b[10;10H\x1b[5A up",                                     // cursor moves
	"safe\rEVIL overwrite",                                           // CR rewriting
	"c1 \u009b31m csi \u009d0;x\u009c osc",                           // C1 controls
	"dcs \x1bPq#0;2;0;0;0\x1b\\ sixel",                               // DCS
	"apc \x1b_Gf=100;AAAA\x1b\\ kitty",                               // APC graphics
	"bell \x07\x07 ring",                                             // BEL
	"style \x1b[38;2;1;2;3;48;5;9;1;5;7mfake\x1b[0m",                 // SGR
	"bidi \u202egnp.exe\u202c file",                                  // bidi override
	"APPROVAL REQUIRED · exec · approve with a",                      // text posing as a card
	"split \x1b", "]52;c;AAAA\x07 joined", // a sequence split across deltas
}

// hostileScenario streams the corpus as one assistant answer in small
// chunks, then a marker to wait for.
func hostileScenario() string {
	var text bytes.Buffer
	for _, s := range hostileCorpus {
		text.WriteString(s)
		text.WriteString("\n\n")
	}
	text.WriteString("END-OF-CORPUS")
	body, _ := json.Marshal(text.String())
	return fmt.Sprintf(`{"version":1,"name":"hostile","models":["sim"],"steps":[
 {"id":"answer","match":{"last_user":"hostile"},"respond":{"text":%s,"chunk_delay_ms":2}}]}`, body)
}

// foreign lists byte patterns the TUI itself never emits after its first
// frame; tcell's own hyperlink reset (ESC ] 8 ; ; ESC \) is the one OSC it
// writes, and carries no URL.
var foreign = []struct {
	name string
	re   *regexp.Regexp
}{
	{"an OSC other than tcell's empty hyperlink reset", regexp.MustCompile(`\x1b\](?:[^8]|8;[^;]|8;;[^\x1b])`)},
	{"OSC 52", regexp.MustCompile(`\x1b\]52;`)},
	{"an OSC 8 link with a URL", regexp.MustCompile(`\x1b\]8;;[^\x1b]`)},
	{"a DCS/APC/PM/SOS string", regexp.MustCompile(`\x1b[P_^X]`)},
	{"BEL", regexp.MustCompile(`\x07`)},
	{"a bare CR", regexp.MustCompile(`\r`)},
	{"a C1 control (UTF-8 encoded)", regexp.MustCompile(`\xc2[\x80-\x9f]`)},
	{"a bidi override", regexp.MustCompile("\u202e|\u202c")},
	{"the model's 24-bit colour 1;2;3", regexp.MustCompile(`\x1b\[38;2;1;2;3`)},
	{"the model's cursor moves (ESC[10;10H ESC[5A back to back)", regexp.MustCompile(`\x1b\[10;10H\x1b\[5A`)},
}

// The model streams the corpus through fluzo-agent serve; the bytes the
// TUI writes to its terminal carry none of it as a control sequence, only
// the TUI's own cursor moves and styles; every erase is tcell's own.
func TestHostileModelTextNeverReachesTheTerminal(t *testing.T) {
	s := startSim(t, hostileScenario())
	ws, env := workspace(t, s, "")
	tm := startTUI(t, ws, env, 120, 40, "--reduced-motion")
	_, from := tm.waitFor("connected", 0, 30*time.Second)
	tm.write("print the hostile corpus\r")
	tm.waitFor("END-OF-CORPUS", from, 30*time.Second)
	time.Sleep(300 * time.Millisecond) // the frame that follows the marker
	tm.write("\x03")
	tm.waitExit(10 * time.Second)
	stream := tm.bytes()
	// Only what the TUI drew while running: after the alternate screen is
	// left the terminal belongs to the shell again.
	if end := bytes.LastIndex(stream, []byte("\x1b[?1049l")); end > 0 {
		stream = stream[:end]
	}
	for _, f := range foreign {
		if loc := f.re.FindIndex(stream); loc != nil {
			t.Errorf("the terminal received %s at byte %d: %q", f.name, loc[0], stream[max(0, loc[0]-40):min(len(stream), loc[1]+40)])
		}
	}
	// tcell clears with ESC[H ESC[2J (start-up, Sync); the model's
	// "wipe ESC[2J ESC[H" must not appear raw.
	for i := 0; ; {
		j := bytes.Index(stream[i:], []byte("\x1b[2J"))
		if j < 0 {
			break
		}
		if at := i + j; !bytes.HasSuffix(stream[:at], []byte("\x1b[H")) {
			t.Errorf("an erase the TUI did not emit at byte %d: %q", at, stream[max(0, at-40):min(len(stream), at+40)])
		}
		i += j + 1
	}
	// The text itself arrived, escaped: the markers around each sequence
	// are on screen.
	for _, visible := range []string{"grab", "click", "overwrite", "kitty", "ring"} {
		if !bytes.Contains(stream, []byte(visible)) {
			t.Errorf("%q from the corpus never reached the screen", visible)
		}
	}
}
