package markdown

// glyphs are the drawn characters, Unicode or ASCII (Options.ASCII).
type glyphs struct {
	bullet   string // list item marker
	quote    string // block-quote bar and its gap
	rule     string // thematic break, repeated to the width
	cont     string // marks a code row continued from the row above
	colSep   string // between table columns
	colRule  string // under the table header, repeated
	colCross string // where the header rule meets a column separator
	ellipsis string
}

var unicodeGlyphs = glyphs{
	bullet: "• ", quote: "│ ", rule: "─", cont: "↳",
	colSep: " │ ", colRule: "─", colCross: "─┼─", ellipsis: "…",
}

var asciiGlyphs = glyphs{
	bullet: "* ", quote: "| ", rule: "-", cont: ">",
	colSep: " | ", colRule: "-", colCross: "-+-", ellipsis: "...",
}

func glyphsFor(o Options) glyphs {
	if o.ASCII {
		return asciiGlyphs
	}
	return unicodeGlyphs
}
