package theme

import "testing"

func env(kv ...string) func(string) string {
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return func(k string) string { return m[k] }
}

func TestDetect(t *testing.T) {
	cases := []struct {
		name string
		env  func(string) string
		want Caps
	}{
		{"dumb is ascii without colour", env("TERM", "dumb", "COLORTERM", "truecolor"), Caps{NoColor, true}},
		{"linux console is ascii without colour", env("TERM", "linux"), Caps{NoColor, true}},
		{"NO_COLOR turns colour off", env("TERM", "xterm-256color", "NO_COLOR", "1", "COLORTERM", "truecolor"), Caps{NoColor, false}},
		{"empty NO_COLOR is ignored", env("TERM", "xterm-256color", "NO_COLOR", ""), Caps{Color256, false}},
		{"COLORTERM truecolor", env("TERM", "xterm-256color", "COLORTERM", "truecolor"), Caps{TrueColor, false}},
		{"COLORTERM 24bit", env("TERM", "xterm", "COLORTERM", "24bit"), Caps{TrueColor, false}},
		{"ghostty is truecolor without COLORTERM", env("TERM", "xterm-ghostty"), Caps{TrueColor, false}},
		{"a -truecolor TERM", env("TERM", "screen-truecolor"), Caps{TrueColor, false}},
		{"TCELL_TRUECOLOR forces on", env("TERM", "xterm", "TCELL_TRUECOLOR", "on"), Caps{TrueColor, false}},
		{"TCELL_TRUECOLOR=disable wins over COLORTERM", env("TERM", "xterm-256color", "COLORTERM", "truecolor", "TCELL_TRUECOLOR", "disable"), Caps{Color256, false}},
		{"tmux-256color", env("TERM", "tmux-256color"), Caps{Color256, false}},
		{"plain xterm is 16 colours", env("TERM", "xterm"), Caps{Color16, false}},
		{"unset TERM is 16 colours", env(), Caps{Color16, false}},
	}
	for _, c := range cases {
		if got := Detect(c.env); got != c.want {
			t.Errorf("%s: Detect = %+v, want %+v", c.name, got, c.want)
		}
	}
}

func TestFlagsOnlyTakeAway(t *testing.T) {
	tc := Caps{Depth: TrueColor}
	if got := tc.With(Flags{}); got != tc {
		t.Errorf("no flags changed caps: %+v", got)
	}
	if got := tc.With(Flags{ASCII: true}); got != (Caps{TrueColor, true}) {
		t.Errorf("--ascii: %+v", got)
	}
	if got := tc.With(Flags{NoColor: true}); got != (Caps{NoColor, false}) {
		t.Errorf("--no-color: %+v", got)
	}
	dumb := Caps{NoColor, true}
	if got := dumb.With(Flags{}); got != dumb {
		t.Errorf("flags restored capability: %+v", got)
	}
}
