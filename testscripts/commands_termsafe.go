package testscripts

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/rogpeppe/go-internal/testscript"
)

func init() {
	register("unquote-env", unquoteEnv)
	register("terminal-safe", terminalSafe)
}

// unquote-env NAME QUOTED sets $NAME to the Go string literal QUOTED, so a
// script can pass control characters and bidi overrides as readable
// escapes ("\x1b]52;c;...\x07", "\u202e").
func unquoteEnv(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: unquote-env NAME QUOTED")
	}
	v, err := strconv.Unquote(args[1])
	if err != nil {
		ts.Fatalf("unquote-env: %s is not a Go string literal: %v", args[1], err)
	}
	ts.Setenv(args[0], v)
}

// terminal-safe stdout|stderr asserts the last command's output could not
// drive a terminal or reorder what it shows: valid UTF-8 with no control
// character but '\n' and '\t', no DEL, no C1 control, no bidi control and
// no line or paragraph separator.
func terminalSafe(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 || (args[0] != "stdout" && args[0] != "stderr") {
		ts.Fatalf("usage: terminal-safe stdout|stderr")
	}
	out := ts.ReadFile(args[0])
	if !utf8.ValidString(out) {
		ts.Fatalf("%s is not valid UTF-8", args[0])
	}
	for i, line := range strings.Split(out, "\n") {
		for _, r := range line {
			if unsafeRune(r) {
				ts.Fatalf("%s line %d holds %U: %q", args[0], i+1, r, line)
			}
		}
	}
}

func unsafeRune(r rune) bool {
	switch {
	case r == '\t':
		return false
	case r < 0x20, r == 0x7f, r >= 0x80 && r <= 0x9f:
		return true
	case r == 0x061c, r == 0x200e, r == 0x200f, r >= 0x2028 && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	}
	return false
}
