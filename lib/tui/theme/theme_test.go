package theme

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden")

func mustNew(t *testing.T, name string, caps Caps) *Theme {
	t.Helper()
	th, err := New(name, caps)
	if err != nil {
		t.Fatal(err)
	}
	return th
}

func TestNewUnknownTheme(t *testing.T) {
	_, err := New("solarized", Caps{Depth: TrueColor})
	var unknown *UnknownThemeError
	if !errors.As(err, &unknown) || unknown.Name != "solarized" {
		t.Fatalf("err = %v, want *UnknownThemeError for solarized", err)
	}
	for _, want := range []string{`"solarized"`, "default", "high-contrast", "--theme"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %s", err, want)
		}
	}
	th := mustNew(t, "", Caps{Depth: TrueColor})
	if th.Name() != NameDefault || th.HighContrast() {
		t.Errorf("empty name gave %q", th.Name())
	}
	if !mustNew(t, NameHighContrast, Caps{}).HighContrast() {
		t.Error("high-contrast is not high contrast")
	}
}

// TestStylePins pins the §2.4 table entries by value.
func TestStylePins(t *testing.T) {
	tc := Caps{Depth: TrueColor}
	cases := []struct {
		theme string
		caps  Caps
		tok   Token
		want  string
	}{
		{NameDefault, tc, Base, "fg=#ECEBF0 bg=#201F26"},
		{NameDefault, tc, Accent, "fg=#6B50FF bg=#201F26 bold"},
		{NameDefault, tc, Muted, "fg=#858392 bg=#201F26"},
		{NameDefault, tc, Success, "fg=#00FFB2 bg=#201F26"},
		{NameDefault, tc, Warning, "fg=ansi3 bg=#201F26"},
		{NameDefault, tc, Error, "fg=ansi1 bg=#201F26 bold"},
		{NameDefault, tc, Subtle, "fg=#605F6B bg=#201F26"},
		{NameDefault, tc, Separator, "fg=#3A3943 bg=#201F26"},
		{NameDefault, tc, Panel, "fg=#858392 bg=#2D2C36"},
		{NameDefault, tc, ToolTitle, "fg=#00A4FF bg=#201F26"},
		{NameDefault, tc, Highlight, "fg=#FF60FF bg=#201F26"},
		{NameDefault, tc, OnSelection, "fg=#FFFAF1 bg=#6B50FF"},
		{NameHighContrast, tc, Base, "fg=ansi15 bg=ansi0"},
		{NameHighContrast, tc, Accent, "fg=ansi3 bg=ansi0 bold"},
		{NameHighContrast, tc, Muted, "fg=ansi7 bg=ansi0"},
		{NameHighContrast, tc, Success, "fg=ansi2 bg=ansi0"},
		{NameHighContrast, tc, Error, "fg=ansi1 bg=ansi0 bold"},
		{NameHighContrast, tc, Subtle, "fg=ansi7 bg=ansi0"},
		{NameHighContrast, tc, ToolTitle, "fg=ansi3 bg=ansi0 bold"},
		{NameHighContrast, tc, OnSelection, "fg=ansi0 bg=ansi3"},
		{NameDefault, Caps{Depth: Color16}, Base, "fg=ansi15 bg=ansi0"},
		{NameDefault, Caps{Depth: Color16}, Accent, "fg=ansi12 bg=ansi0 bold"},
		{NameDefault, Caps{Depth: Color16}, Panel, "fg=ansi8 bg=ansi0"},
		{NameDefault, Caps{Depth: Color16}, OnSelection, "fg=ansi15 bg=ansi12"},
		{NameDefault, Caps{Depth: NoColor}, Base, "fg=default bg=default"},
		{NameDefault, Caps{Depth: NoColor}, Accent, "fg=default bg=default bold"},
		{NameDefault, Caps{Depth: NoColor}, Muted, "fg=default bg=default"},
		{NameDefault, Caps{Depth: NoColor}, Success, "fg=default bg=default bold"},
		{NameDefault, Caps{Depth: NoColor}, Warning, "fg=default bg=default underline"},
		{NameDefault, Caps{Depth: NoColor}, Error, "fg=default bg=default bold underline"},
		{NameHighContrast, Caps{Depth: NoColor}, Error, "fg=default bg=default bold underline"},
	}
	for _, c := range cases {
		got := DescribeStyle(mustNew(t, c.theme, c.caps).Style(c.tok, 0))
		if got != c.want {
			t.Errorf("%s/%v/%v: %s, want %s", c.theme, c.caps.Depth, c.tok, got, c.want)
		}
	}
}

func TestStyleAddsAttrs(t *testing.T) {
	th := mustNew(t, NameDefault, Caps{Depth: TrueColor})
	got := DescribeStyle(th.Style(Muted, Italic|Underline))
	if got != "fg=#858392 bg=#201F26 italic underline" {
		t.Errorf("muted+italic+underline = %s", got)
	}
	if got := DescribeStyle(th.Style(Accent, Bold)); got != "fg=#6B50FF bg=#201F26 bold" {
		t.Errorf("accent+bold = %s", got)
	}
	if th.Style(Token(250), 0) != th.Style(Base, 0) {
		t.Error("unknown token is not base")
	}
}

// TestStyleGolden dumps every token in every theme at every depth, so any
// palette change shows up as a reviewed diff.
func TestStyleGolden(t *testing.T) {
	var b strings.Builder
	for _, name := range Names() {
		for _, d := range []Depth{TrueColor, Color256, Color16, NoColor} {
			th := mustNew(t, name, Caps{Depth: d})
			for tok := range Count {
				fmt.Fprintf(&b, "%s %s %s: %s\n", name, d, Token(tok), DescribeStyle(th.Style(Token(tok), 0)))
			}
		}
	}
	checkGolden(t, "styles.golden", b.String())
}

func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if string(want) != got {
		t.Errorf("%s differs from the output (go test -update rewrites it):\n%s", path, firstDiff(string(want), got))
	}
}

func firstDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(w) || i < len(g); i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			return fmt.Sprintf("line %d:\n  want %q\n  got  %q", i+1, wl, gl)
		}
	}
	return "(no line differs)"
}
