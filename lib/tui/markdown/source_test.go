package markdown

import (
	"testing"

	"github.com/josecorral/fluzo/lib/tui/theme"
)

func TestLanguageOfPathUsesTheFencedCodeLexers(t *testing.T) {
	for p, want := range map[string]string{"lib/a.go": "go", "src/lib.rs": "rs", "Makefile": "makefile", "x/Dockerfile": "dockerfile", "notes.unknownext": "", "README": ""} {
		if got := LanguageOfPath(p); got != want {
			t.Errorf("%s: %q, want %q", p, got, want)
		}
	}
}

func TestHighlightSourceKeepsOneRowPerLine(t *testing.T) {
	rows := HighlightSource("go", "func A() {}\n// note")
	if len(rows) != 2 || rows[0][0].Token != theme.SynKeyword || rows[1][0].Token != theme.SynComment {
		t.Fatalf("rows %+v", rows)
	}
}
