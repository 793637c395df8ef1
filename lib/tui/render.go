package tui

import (
	"strings"

	"github.com/josecorral/fluzo/lib/port"
	"github.com/josecorral/fluzo/lib/tui/cards"
	"github.com/josecorral/fluzo/lib/tui/markdown"
	"github.com/josecorral/fluzo/lib/tui/text"
	"github.com/josecorral/fluzo/lib/tui/theme"
)

// Origin labels are structural: the app draws them from the item kind,
// never from item text, so model or tool text cannot claim to be the user,
// the runtime or an approval card.
const (
	labelUser      = "You"
	labelAssistant = "Fluzo"
	labelApproval  = "APPROVAL REQUIRED"
)

// lines returns an item's rows at width (gutter included), from the cache
// when neither the item nor the width changed since the last render.
func (a *App) lines(it *item, width int) []line {
	if it.cache.lines != nil && it.cache.width == width && it.cache.gen == it.gen {
		return it.cache.lines
	}
	rows := a.layoutItem(it, width)
	it.cache = renderCache{width: width, gen: it.gen, lines: rows}
	a.stats.layouts++
	return rows
}

func (a *App) layoutItem(it *item, width int) []line {
	body := width - 2
	var out []line
	add := func(gutter text.Span, l line) {
		for _, w := range wrapLine(l, body) {
			out = append(out, append(line{gutter}, w...))
		}
	}
	plain := span("  ", theme.Base)
	switch it.kind {
	case itemUser:
		g := span(a.p.glyph("│ ", "| "), theme.Accent)
		add(g, line{bold(labelUser, theme.Accent)})
		for _, l := range strings.Split(it.text, "\n") {
			add(g, line{span(l, theme.Base)})
		}
	case itemAssistant:
		add(plain, line{bold(labelAssistant, theme.Accent), span(" · "+a.info.model, theme.Subtle)})
		it.md.Options = markdown.Options{ASCII: a.opts.Caps.ASCII}
		res := it.md.Render(it.text, body)
		it.blocks = res.Blocks
		for _, l := range res.Lines {
			out = append(out, append(line{plain}, l...))
		}
	case itemTool:
		out = append(out, a.toolLines(it.tool, body)...)
	case itemApproval:
		out = append(out, a.approvalLines(it.approval, body)...)
	case itemIntervention:
		g := span(a.p.glyph("│ ", "| "), theme.Muted)
		state := it.interv.state
		if it.interv.editing {
			state = "editing in the composer"
		}
		add(g, line{bold(labelUser, theme.Accent), span(" · queued message · "+state, theme.Muted)})
		for _, l := range strings.Split(it.interv.text, "\n") {
			add(g, line{span(l, theme.Base)})
		}
	case itemNotice:
		tok := map[string]theme.Token{"error": theme.Error, "warning": theme.Warning}[it.notice.severity]
		if tok == 0 {
			tok = theme.Muted
		}
		g := span(a.p.glyph("◇ ", "* "), tok)
		add(g, line{bold(it.notice.title, tok)})
		for _, l := range strings.Split(it.notice.body, "\n") {
			if l != "" {
				add(plain, line{span(l, theme.Base)})
			}
		}
		if it.notice.hint != "" {
			add(plain, line{span(it.notice.hint, theme.Subtle)})
		}
	case itemResult:
		out = append(out, a.resultLines(it.result, body)...)
	}
	return append(out, line{}) // one blank row between items
}

func (a *App) toolLines(t *toolInfo, body int) []line {
	var out []line
	for _, l := range cards.Render(t.op, cards.Options{Width: body, ASCII: a.opts.Caps.ASCII, Expanded: t.expanded}) {
		out = append(out, append(line{span("  ", theme.Base)}, l...))
	}
	return out
}

func (a *App) resultLines(r *port.Result, body int) []line { return resultRows(a, r, body) }
