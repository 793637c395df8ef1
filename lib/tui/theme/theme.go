package theme

import (
	"fmt"
	"strings"

	"github.com/gdamore/tcell/v2"
)

// Theme names accepted by --theme and tui.theme.
const (
	NameDefault      = "default"
	NameHighContrast = "high-contrast"
)

// Names lists the valid theme names in the order help shows them.
func Names() []string { return []string{NameDefault, NameHighContrast} }

// UnknownThemeError is returned by New for a name that is not a theme.
type UnknownThemeError struct{ Name string }

func (e *UnknownThemeError) Error() string {
	return fmt.Sprintf("unknown theme %q: valid themes are %s (set --theme or tui.theme)",
		e.Name, strings.Join(Names(), ", "))
}

// Theme resolves tokens to terminal styles for one theme at one
// capability. Styles are computed once in New, so Style is a table lookup
// on the render path.
type Theme struct {
	name   string
	caps   Caps
	styles [Count]tcell.Style
}

// New builds the named theme for the given capabilities. The empty name
// means the default theme (an unset setting).
func New(name string, caps Caps) (*Theme, error) {
	var table *[Count]tokenSpec
	switch name {
	case NameDefault, "":
		name, table = NameDefault, &defaultSpecs
	case NameHighContrast:
		table = &highContrastSpecs
	default:
		return nil, &UnknownThemeError{Name: name}
	}
	t := &Theme{name: name, caps: caps}
	for tok := range Count {
		if caps.Depth == NoColor {
			t.styles[tok] = withAttrs(tcell.StyleDefault, noColourAttrs[tok])
			continue
		}
		t.styles[tok] = table[tok].style(caps.Depth)
	}
	return t, nil
}

// Name is the theme's canonical name.
func (t *Theme) Name() string { return t.name }

// HighContrast reports whether this is the high-contrast theme (the
// identity switches to its fire treatment).
func (t *Theme) HighContrast() bool { return t.name == NameHighContrast }

// Caps are the capabilities the theme was built for.
func (t *Theme) Caps() Caps { return t.caps }

// Style is the terminal style of a token with extra emphasis on top. An
// unknown token falls back to the base style rather than failing a frame.
func (t *Theme) Style(tok Token, attr Attr) tcell.Style {
	s := t.styles[Base]
	if int(tok) < Count {
		s = t.styles[tok]
	}
	if attr == 0 {
		return s
	}
	return withAttrs(s, attrsOf(s)|attr.mask())
}

// withAttrs sets attributes, routing underline through tcell's underline
// style: in tcell v2.13 the AttrUnderline bit alone draws nothing.
func withAttrs(s tcell.Style, m tcell.AttrMask) tcell.Style {
	s = s.Attributes(m &^ tcell.AttrUnderline)
	if m&tcell.AttrUnderline != 0 {
		s = s.Underline(true)
	}
	return s
}

// Colour maps an RGB colour to this theme's depth (see Depth.Colour).
func (t *Theme) Colour(c RGB) tcell.Color { return t.caps.Depth.Colour(c) }

func attrsOf(s tcell.Style) tcell.AttrMask {
	_, _, a := s.Decompose()
	return a
}

// Attr adds emphasis on top of a token's own style. It lives here rather
// than in lib/tui/text (which re-exports it) because Style needs it and
// text already imports theme for Token.
type Attr uint8

const (
	Bold Attr = 1 << iota
	Italic
	Underline
	Reverse
	Dim
)

func (a Attr) mask() tcell.AttrMask {
	var m tcell.AttrMask
	if a&Bold != 0 {
		m |= tcell.AttrBold
	}
	if a&Italic != 0 {
		m |= tcell.AttrItalic
	}
	if a&Underline != 0 {
		m |= tcell.AttrUnderline
	}
	if a&Reverse != 0 {
		m |= tcell.AttrReverse
	}
	if a&Dim != 0 {
		m |= tcell.AttrDim
	}
	return m
}
