package text

import (
	"testing"

	"github.com/josecorral/fluzo/lib/tui/theme"
)

func TestDump(t *testing.T) {
	got := Dump([]Line{{{Text: "• ", Token: theme.Accent}, {Text: "x\x1b ", Attr: Bold | Dim}}, {}})
	want := "|• x\x1b |\n  ~ accent \"• \" base+bold+dim \"x\\x1b \"\n||\n  ~\n"
	if got != want {
		t.Errorf("Dump =\n%s\nwant\n%s", got, want)
	}
	if got := DumpText([]Line{{{Text: "a"}, {Text: "b"}}, {}}); got != "ab\n\n" {
		t.Errorf("DumpText = %q", got)
	}
}
