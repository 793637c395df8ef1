package observe

import "testing"

func TestCleanEscapesControlAndBidiCharacters(t *testing.T) {
	cases := map[string]string{
		"plain text":             "plain text",
		"red \x1b[31mX\x1b[0m":   `red \x1b[31mX\x1b[0m`,
		"bell\x07 tab\tnew\nend": `bell\x07 tab new end`,
		"evil \u202eeman":        `evil \u202eeman`,
		"\u2066iso\u2069":        `\u2066iso\u2069`,
		"\u009b31m":              `\u009b31m`,
		"raw \x9b byte":          `raw \x9b byte`,
		"safe\rEVIL":             `safe\x0dEVIL`,
	}
	for in, want := range cases {
		if got := clean(in, 100); got != want {
			t.Errorf("clean(%q) = %q, want %q", in, got, want)
		}
	}
	if got := clean("abcdef", 3); got != "abc…" {
		t.Errorf("bounded clean = %q", got)
	}
}
