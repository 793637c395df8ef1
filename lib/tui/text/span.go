// Package text holds the TUI's styled-text vocabulary (spans and lines) and
// the one cell-width function used for layout, wrapping, truncation and
// cursor placement, so every view agrees on how wide a string is.
package text

import "github.com/josecorral/fluzo/lib/tui/theme"

// Attr adds emphasis on top of a token's own style. It is defined in
// theme (whose Style method takes it; theme cannot import text) and
// re-exported here so spans keep spelling it text.Bold and so on.
type Attr = theme.Attr

const (
	Bold      = theme.Bold
	Italic    = theme.Italic
	Underline = theme.Underline
	Reverse   = theme.Reverse
	Dim       = theme.Dim
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
