package cards

import (
	"strconv"
	"strings"

	"github.com/josecorral/fluzo/lib/tui/text"
	"github.com/josecorral/fluzo/lib/tui/theme"
)

// indent is the left margin of everything under the title.
const indent = "  "

// layout turns a card into rows: the title, details, the body on the
// panel (collapsed or bounded), then the notices.
func layout(c card, o Options) []text.Line {
	g := glyphsFor(o.ASCII)
	out := []text.Line{titleRow(c, o, g)}
	inner := o.Width - len(indent)
	if inner < 1 {
		inner = o.Width
	}
	if o.Expanded && c.subject != "" && titleCut(c, o, g) {
		// The title was cut: an expanded card shows the whole subject
		// (every argv item, the full path) on rows of its own.
		for _, r := range text.HardWrap(text.Line{{Text: c.subject}}, inner) {
			out = append(out, prefixed(indent, theme.Base, r, inner < o.Width))
		}
	}
	for _, d := range c.details {
		out = append(out, text.TruncateLine(prefixed(indent, theme.Muted, d, inner < o.Width), o.Width, g.ellipsis))
	}
	rows := bodyRows(c.body, inner)
	switch {
	case !o.Expanded && len(rows) > CollapsedRows:
		more := len(rows) - CollapsedRows
		out = appendPanel(out, rows[:CollapsedRows], o.Width, inner < o.Width)
		out = append(out, marker(g.ellipsis+" "+plural(more, "more line", "more lines")+g.sep+"Space to expand", o, g))
	case o.Expanded && len(rows) > 2*ExpandedEdge+1:
		omitted := len(rows) - 2*ExpandedEdge
		out = appendPanel(out, rows[:ExpandedEdge], o.Width, inner < o.Width)
		out = append(out, marker(g.ellipsis+" "+plural(omitted, "line", "lines")+" omitted "+g.ellipsis, o, g))
		out = appendPanel(out, rows[len(rows)-ExpandedEdge:], o.Width, inner < o.Width)
	default:
		out = appendPanel(out, rows, o.Width, inner < o.Width)
	}
	for _, n := range c.notices {
		for _, r := range text.Wrap(n, inner) {
			out = append(out, prefixed(indent, n[0].Token, r, inner < o.Width))
		}
	}
	return out
}

// titleCut reports whether the title row had to be truncated.
func titleCut(c card, o Options, g glyphs) bool {
	return text.LineWidth(titleRow(c, Options{Width: 1 << 20, ASCII: o.ASCII}, g)) > o.Width
}

// titleRow: icon, tool, subject, then the state and facts in muted,
// truncated to the width (the body and notices carry the rest).
func titleRow(c card, o Options, g glyphs) text.Line {
	icon, tok := g.icon(c.status)
	l := text.Line{{Text: icon, Token: tok}, {Text: c.tool, Token: theme.ToolTitle}}
	if c.subject != "" {
		l = append(l, text.Span{Text: " " + c.subject})
		if c.subjectCut {
			l = append(l, text.Span{Text: " " + g.ellipsis})
		}
	}
	meta := c.meta
	if c.label != "" {
		meta = append([]string{c.label}, meta...)
	}
	if len(meta) > 0 {
		l = append(l, text.Span{Text: g.sep + strings.Join(meta, g.sep), Token: theme.Muted})
	}
	return text.TruncateLine(l, o.Width, g.ellipsis)
}

// bodyRows wraps each body line that is longer than width, after its last
// space where it has one, so words stay whole: output and file content
// keep every character and space, and the row count is what collapsing
// counts.
func bodyRows(body []text.Line, width int) []text.Line {
	var rows []text.Line
	for _, l := range body {
		rows = append(rows, text.WrapOutput(l, width)...)
	}
	return rows
}

// appendPanel adds body rows behind the margin, padded to the width so
// the panel background is one solid box.
func appendPanel(out []text.Line, rows []text.Line, width int, margin bool) []text.Line {
	for _, r := range rows {
		row := make(text.Line, 0, len(r)+2)
		if margin {
			row = append(row, text.Span{Text: indent, Token: theme.Panel})
		}
		row = append(row, r...)
		if pad := width - text.LineWidth(row); pad > 0 {
			row = append(row, text.Span{Text: strings.Repeat(" ", pad), Token: theme.Panel})
		}
		out = append(out, row)
	}
	return out
}

func marker(s string, o Options, g glyphs) text.Line {
	return text.TruncateLine(text.Line{{Text: indent + s, Token: theme.Muted}}, o.Width, g.ellipsis)
}

func prefixed(p string, tok theme.Token, l text.Line, margin bool) text.Line {
	if !margin {
		return l
	}
	return append(text.Line{{Text: p, Token: tok}}, l...)
}

// glyphs are the card's marks, Unicode or ASCII.
type glyphs struct {
	running, ok, failed, unknown string
	ellipsis                     string
	sep                          string // between the title's facts
}

func glyphsFor(ascii bool) glyphs {
	if ascii {
		return glyphs{running: "[.] ", ok: "[v] ", failed: "[x] ", unknown: "[?] ", ellipsis: text.ASCIIEllipsis, sep: " - "}
	}
	return glyphs{running: "● ", ok: "✓ ", failed: "× ", unknown: "? ", ellipsis: text.Ellipsis, sep: " · "}
}

// icon: running muted, waiting in the warning colour, success (never
// bold) in success, failure in error; the state is also in the title's
// words, never in colour alone.
func (g glyphs) icon(s status) (string, theme.Token) {
	switch s {
	case stWaiting:
		return g.running, theme.Warning
	case stOK:
		return g.ok, theme.Success
	case stFailed:
		return g.failed, theme.Error
	case stUnknown:
		return g.unknown, theme.Warning
	}
	return g.running, theme.Muted
}

// duration formats milliseconds as a person reads a run's length.
func duration(ms int64) string {
	switch {
	case ms < 1000:
		return strconv.FormatInt(ms, 10) + "ms"
	case ms < 60_000:
		return strconv.FormatFloat(float64(ms)/1000, 'f', 1, 64) + "s"
	}
	m, s := ms/60_000, (ms%60_000)/1000
	return strconv.FormatInt(m, 10) + "m" + strconv.FormatInt(100+s, 10)[1:] + "s"
}
