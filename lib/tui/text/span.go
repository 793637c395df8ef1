// Package text holds the TUI's styled-text vocabulary (spans and lines) and
// the one cell-width function used for layout, wrapping, truncation and
// cursor placement, so every view agrees on how wide a string is.
package text

import "github.com/josecorral/fluzo/lib/tui/theme"

// Attr adds emphasis on top of a token's own style.
type Attr uint8

const (
	Bold Attr = 1 << iota
	Italic
	Underline
	Reverse
	Dim
)

// Span is a run of display text in one style. Text is already safe for the
// terminal (it passed lib/termsafe): renderers never sanitize twice and
// never receive raw model, file or tool text.
type Span struct {
	Text  string
	Token theme.Token
	Attr  Attr
}

// Line is one logical line of styled text, before wrapping.
type Line []Span
