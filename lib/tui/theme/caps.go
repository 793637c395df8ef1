package theme

import "strings"

// Depth is how many colours the terminal can show. The order matters:
// a deeper depth can show everything a shallower one can.
type Depth uint8

const (
	NoColor   Depth = iota // NO_COLOR, TERM=dumb/linux, --no-color: default colours only
	Color16                // the 16 named ANSI colours (the reference's reduction pass)
	Color256               // the xterm 256-colour palette
	TrueColor              // 24-bit RGB
)

var depthNames = [...]string{"no-color", "16", "256", "truecolor"}

// String names the depth as goldens and diagnostics show it.
func (d Depth) String() string {
	if int(d) < len(depthNames) {
		return depthNames[d]
	}
	return "depth?"
}

// Caps is what the terminal can show: a colour depth and whether glyphs
// must stay ASCII.
type Caps struct {
	Depth Depth
	ASCII bool
}

// Colour reports whether any colour is drawn at all.
func (c Caps) Colour() bool { return c.Depth != NoColor }

// RGB reports whether colours are computed as RGB (truecolor or the 256
// palette fit); below that the identity uses its named 16-colour fallbacks.
func (c Caps) RGB() bool { return c.Depth >= Color256 }

// Detect derives the capabilities from the environment (injected so tests
// and the app decide where it comes from; pass os.Getenv in production).
// The rules are the reference's: TERM=dumb or linux means ASCII and no
// colour; a non-empty NO_COLOR turns colour off; truecolor comes from
// COLORTERM, TCELL_TRUECOLOR (tcell's own override, "disable" forces it
// off) or a terminal known to support it without saying so (Ghostty).
func Detect(getenv func(string) string) Caps {
	term := getenv("TERM")
	if term == "dumb" || term == "linux" {
		return Caps{Depth: NoColor, ASCII: true}
	}
	if getenv("NO_COLOR") != "" {
		return Caps{Depth: NoColor}
	}
	if truecolor(term, getenv("COLORTERM"), getenv("TCELL_TRUECOLOR")) {
		return Caps{Depth: TrueColor}
	}
	if strings.Contains(term, "256color") {
		return Caps{Depth: Color256}
	}
	return Caps{Depth: Color16}
}

func truecolor(term, colorterm, forced string) bool {
	switch {
	case forced == "disable":
		return false
	case forced != "":
		return true
	}
	switch colorterm {
	case "truecolor", "24bit", "24-bit":
		return true
	}
	return term == "xterm-ghostty" || strings.HasSuffix(term, "-truecolor")
}

// Flags are the command-line overrides (--ascii, --no-color). They only
// ever take capability away, so a flag can never claim colours the
// terminal lacks.
type Flags struct {
	ASCII   bool
	NoColor bool
}

// With applies the command-line overrides on top of detected capabilities.
func (c Caps) With(f Flags) Caps {
	if f.ASCII {
		c.ASCII = true
	}
	if f.NoColor {
		c.Depth = NoColor
	}
	return c
}
