package theme

import "github.com/gdamore/tcell/v2"

// paint is one palette entry: an RGB value that goes through the depth
// mapping, or a named ANSI colour that every colour depth shows as is.
type paint struct {
	rgb   RGB
	named tcell.Color
}

func rgb(r, g, b uint8) paint   { return paint{rgb: RGB{r, g, b}} }
func named(c tcell.Color) paint { return paint{named: c} }
func (p paint) isNamed() bool   { return p.named != tcell.ColorDefault }

func (p paint) colour(d Depth) tcell.Color {
	if p.isNamed() {
		return p.named
	}
	return d.Colour(p.rgb)
}

// tokenSpec is a token's colours and attributes in one theme.
type tokenSpec struct {
	fg, bg paint
	attrs  tcell.AttrMask
}

func (s tokenSpec) style(d Depth) tcell.Style {
	fg, bg := s.fg.colour(d), s.bg.colour(d)
	// The reference's rule 3: two distinct colours that collapse to one
	// named colour would hide the text.
	if d == Color16 && s.fg != s.bg && fg == bg {
		fg = ANSIBlack
		if bg == ANSIBlack {
			fg = ANSIDarkGray
		}
	}
	return withAttrs(tcell.StyleDefault.Foreground(fg).Background(bg), s.attrs)
}

// The Charmtone colours the default theme uses (TUI-REFERENCE §2.4).
var (
	sash     = rgb(236, 235, 240)
	pepper   = rgb(32, 31, 38)
	charple  = rgb(107, 80, 255)
	squid    = rgb(133, 131, 146)
	julep    = rgb(0, 255, 178)
	oyster   = rgb(96, 95, 107)
	charcoal = rgb(58, 57, 67)
	bbq      = rgb(45, 44, 54)
	malibu   = rgb(0, 164, 255)
	dolly    = rgb(255, 96, 255)
	butter   = rgb(255, 250, 241)
	zest     = rgb(232, 254, 150)
	coral    = rgb(255, 87, 125)
	smoke    = rgb(191, 188, 200)
)

const bold = tcell.AttrBold

// defaultSpecs is the default theme. Every token sits on the Pepper
// surface except the panel (tool bodies) and syntax roles (code blocks),
// which sit on BBQ, and the selection, which sits on the accent.
var defaultSpecs = [Count]tokenSpec{
	Base:        {fg: sash, bg: pepper},
	Accent:      {fg: charple, bg: pepper, attrs: bold},
	Muted:       {fg: squid, bg: pepper},
	Success:     {fg: julep, bg: pepper},
	Warning:     {fg: named(ANSIYellow), bg: pepper},
	Error:       {fg: named(ANSIRed), bg: pepper, attrs: bold},
	Subtle:      {fg: oyster, bg: pepper},
	Separator:   {fg: charcoal, bg: pepper},
	Panel:       {fg: squid, bg: bbq},
	ToolTitle:   {fg: malibu, bg: pepper},
	Highlight:   {fg: dolly, bg: pepper},
	OnSelection: {fg: butter, bg: charple},
	SynKeyword:  {fg: malibu, bg: bbq},
	SynString:   {fg: zest, bg: bbq},
	SynComment:  {fg: squid, bg: bbq, attrs: tcell.AttrItalic},
	SynNumber:   {fg: dolly, bg: bbq},
	SynFunction: {fg: julep, bg: bbq},
	SynType:     {fg: coral, bg: bbq},
	SynOperator: {fg: smoke, bg: bbq},
}

// highContrastSpecs is the high-contrast theme: named colours only, white
// on black; subtle, separator and panel fall back to muted and the tool
// title, highlight to the accent, as the reference maps them.
var highContrastSpecs = func() [Count]tokenSpec {
	black, white := named(ANSIBlack), named(ANSIWhite)
	yellow, gray := named(ANSIYellow), named(ANSIGray)
	muted := tokenSpec{fg: gray, bg: black}
	accent := tokenSpec{fg: yellow, bg: black, attrs: bold}
	return [Count]tokenSpec{
		Base:        {fg: white, bg: black},
		Accent:      accent,
		Muted:       muted,
		Success:     {fg: named(ANSIGreen), bg: black},
		Warning:     {fg: yellow, bg: black},
		Error:       {fg: named(ANSIRed), bg: black, attrs: bold},
		Subtle:      muted,
		Separator:   muted,
		Panel:       muted,
		ToolTitle:   accent,
		Highlight:   accent,
		OnSelection: {fg: black, bg: yellow},
		SynKeyword:  {fg: named(ANSILightCyan), bg: black},
		SynString:   {fg: named(ANSILightGreen), bg: black},
		SynComment:  {fg: gray, bg: black},
		SynNumber:   {fg: named(ANSILightMagenta), bg: black},
		SynFunction: {fg: white, bg: black, attrs: bold},
		SynType:     {fg: named(ANSILightYellow), bg: black},
		SynOperator: {fg: white, bg: black},
	}
}()

// noColourAttrs is how tokens stay distinguishable with colour off
// (NO_COLOR keeps frames and labels; emphasis replaces colour). The
// selection is reversed because nothing else would show it.
var noColourAttrs = [Count]tcell.AttrMask{
	Accent:      bold,
	Success:     bold,
	Warning:     tcell.AttrUnderline,
	Error:       bold | tcell.AttrUnderline,
	ToolTitle:   bold,
	OnSelection: tcell.AttrReverse,
	SynKeyword:  bold,
}
