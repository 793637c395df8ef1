package tui

import (
	"fmt"
	"strings"

	"github.com/josecorral/fluzo/lib/port"
	"github.com/josecorral/fluzo/lib/tui/text"
	"github.com/josecorral/fluzo/lib/tui/theme"
)

func (a *App) layout() layout {
	w, h := a.scr.Size()
	rows, _, _ := a.comp.visual(a.composerTextWidth(w))
	return computeLayout(w, h, len(rows), a.sidebarOff)
}

func (a *App) composerTextWidth(w int) int {
	l := computeLayout(w, 100, 1, a.sidebarOff)
	return l.composer.w - 4
}

// render repaints what is dirty and calls Show once. An animation-only
// wake repaints the activity cells and touches nothing else.
func (a *App) render() {
	if !a.dirty.all && !a.dirty.identity {
		return
	}
	l := a.layout()
	began := a.clock.Now()
	defer func() { a.cfg.meter.Record(began, a.clock.Now(), a.fr.skipped) }()
	a.stats.frames++
	if a.dirty.all {
		a.stats.fullFrames++
		a.scr.Fill(' ', a.th.Style(theme.Base, 0)) // the theme's surface, not the terminal's default
		a.drawAll(l)
	} else {
		a.stats.identityFrames++
		if !l.tooSmall {
			a.drawIdentity(l)
		}
	}
	a.dirty = dirtySet{}
	a.scr.Show()
}

func (a *App) drawAll(l layout) {
	if l.tooSmall {
		a.drawTooSmall(l)
		return
	}
	if l.compact {
		a.drawCompactHeader(l)
	} else {
		a.drawSidebar(l)
	}
	a.drawConversation(l)
	a.drawComposer(l)
	a.drawFooter(l)
	a.drawIdentity(l)
	a.drawToasts(l)
	switch a.dialog {
	case dialogNone:
	case dialogHelp:
		a.drawHelp(l)
	case dialogPalette:
		a.drawPalette(l)
	case dialogTasks:
		a.drawTasks(l)
	case dialogDiag:
		a.drawDiag(l)
	case dialogSessions:
		a.drawSessions(l)
	case dialogDiff:
		a.drawDiff(l)
	case dialogSettings:
		a.drawSettings(l)
	case dialogTheme:
		a.drawThemePicker(l)
	case dialogDevMenu:
		a.drawDevMenu(l)
	default:
		a.drawDialog(l)
	}
	if a.cfg.renderDiag {
		a.drawRenderDiag(l) // on top: it measures every frame, dialogs included
	}
}

func (a *App) drawTooSmall(l layout) {
	a.scr.HideCursor()
	msg := []string{"Resize required", fmt.Sprintf("minimum 60x16, now %dx%d", l.w, l.h), "ctrl+c quits", "draft kept"}
	for i, m := range msg {
		if i < l.h {
			a.p.put(0, i, l.w, line{span(m, theme.Base)})
		}
	}
}

// modeLabel is the always-visible NORMAL/YOLO text: never colour alone.
func (a *App) modeLabel() string {
	if a.yolo {
		return "YOLO"
	}
	return "NORMAL"
}

func (a *App) drawCompactHeader(l layout) {
	x := 1 + 5 + 1 // the compact FLUZO is drawn by the identity
	avail := l.w - 1 - x
	tail := a.headerTail(avail - headerMinFill)
	if fill := avail - lineWidth(tail); fill > 0 {
		a.p.fill(x, 1, fill, []rune(a.p.glyph("╱", "/"))[0], theme.Accent)
		x += fill
	}
	a.p.put(x, 1, l.w-1-x, tail)
	a.p.put(1, 2, l.w-2, a.stateLine())
}

// The ╱ fill keeps this many cells so the header still reads as the
// identity's rule; headerMinCwd is the least of the cwd worth showing
// beside the context value (TUI-REFERENCE §3.2).
const (
	headerMinFill = 3
	headerMinCwd  = 12
)

// headerTail is " cwd • context V" fitted into room cells: the cwd is
// shortened (.../ + last 4 components, then cut with an ellipsis) before
// the labelled context value is dropped, and that value is kept or
// dropped whole, never its label alone.
func (a *App) headerTail(room int) line {
	cwd := shortPath(a.info.root, 4)
	ctx := line{span(" • ", theme.Muted), span("context "+a.info.context, theme.Muted)}
	ell := a.p.glyph(text.Ellipsis, text.ASCIIEllipsis)
	if w := room - 1 - lineWidth(ctx); w >= headerMinCwd || w >= cellWidth(cwd) {
		return append(line{span(" "+truncate(cwd, w, ell), theme.Muted)}, ctx...)
	}
	return line{span(" "+truncate(cwd, room-1, ell), theme.Muted)}
}

func (a *App) stateLine() line {
	tok := theme.Muted
	switch a.phase {
	case phaseFailed, phaseLost, phaseBusy:
		tok = theme.Error
	case phaseWaiting, phaseBlocked, phaseInterrupted:
		tok = theme.Warning
	case phaseCompleted:
		tok = theme.Success
	}
	mode := span(a.modeLabel(), theme.Muted)
	if a.yolo {
		mode = bold(a.modeLabel(), theme.Warning)
	}
	return line{span(a.phase.String(), tok), span(" · ", theme.Muted), mode, span(" · ", theme.Muted), span(a.connection(), theme.Muted)}
}

func (a *App) connection() string {
	switch a.phase {
	case phaseLost:
		return "disconnected"
	case phaseBusy:
		return "read-only"
	case phaseLoading:
		return "connecting"
	}
	return "connected"
}

func shortPath(p string, keep int) string {
	parts := strings.Split(strings.Trim(p, "/"), "/")
	if len(parts) > keep {
		return ".../" + strings.Join(parts[len(parts)-keep:], "/")
	}
	return p
}

func (a *App) drawSidebar(l layout) {
	s := l.sidebar
	y := s.y
	y += 4 // rows 1-3 are the wordmark, drawn by the identity
	put := func(l line) {
		if y < s.bottom() {
			a.p.put(s.x, y, 29, l)
			y++
		}
	}
	put(line{span(truncate(a.info.session, 29, "…"), theme.Muted)})
	for i, r := range wrapLine(line{span(a.info.root, theme.Muted)}, 29) {
		if i == 2 {
			put(line{span("path truncated", theme.Subtle)})
			break
		}
		put(r)
	}
	y++
	put(line{span(a.p.glyph("◇ ", "* "), theme.Accent), bold(truncate(a.info.model, 27, "…"), theme.Base)})
	put(line{span("context ", theme.Muted), span(a.info.context, theme.Base)})
	put(line{span("cost    ", theme.Muted), span(a.info.cost, theme.Base)})
	y++
	if len(a.info.files) == 0 {
		put(line{span("No files changed", theme.Muted)})
	} else {
		put(line{span("Modified files", theme.Muted)})
		for _, f := range a.info.files {
			put(a.fileRow(f, 29))
		}
	}
	y++
	mode := span(a.modeLabel(), theme.Muted)
	if a.yolo {
		mode = bold(a.modeLabel(), theme.Warning)
	}
	put(line{mode, span(" · "+a.connection(), theme.Muted)})
	put(line{span(a.phase.String(), theme.Muted)})
}

// fileRow is one changed path with its line counts; a count the runtime
// does not know (a path already changed before the task, binary,
// reverted) reads "+? −?", never 0.
func (a *App) fileRow(f port.DiffChange, w int) line {
	kind := map[string]string{"added": "A", "modified": "M", "deleted": "D", "reverted": "R"}[f.Kind]
	if kind == "" {
		kind = "?"
	}
	counts := "+? " + a.p.glyph("−", "-") + "?"
	if f.Added != nil && f.Removed != nil {
		counts = fmt.Sprintf("+%d %s%d", *f.Added, a.p.glyph("−", "-"), *f.Removed)
	}
	l := line{span(kind+" ", theme.Accent), span(truncate(safeLine(f.Path), w-len(counts)-3, "…"), theme.Base), span(" "+counts, theme.Muted)}
	if f.PreExisting {
		l = append(l, span(" pre-existing", theme.Warning))
	}
	if f.Uncertain {
		l = append(l, span(" (not by the task's tools)", theme.Subtle))
	}
	return l
}

func (a *App) drawFooter(l layout) {
	var keys [][2]string
	if a.taskActive() {
		keys = append(keys, [2]string{"ctrl+c", "cancel"})
	}
	if a.focus == focusChat {
		keys = append(keys, [2]string{"tab", "focus editor"})
		if a.pendingApproval() != nil { // a/t/d mean nothing once no card waits
			keys = append(keys, [2]string{"a/t/d", "answer approval"})
		}
		keys = append(keys, [2]string{"space", "expand"}, [2]string{"c", "copy"})
	} else {
		keys = append(keys, [2]string{"tab", "focus chat"}, [2]string{"shift+enter", "newline"})
	}
	keys = append(keys, [2]string{"ctrl+g", "help"}, [2]string{"ctrl+y", "yolo"}, [2]string{"ctrl+o", "mouse"})
	if !l.compact || a.sidebarOff {
		keys = append(keys, [2]string{"ctrl+b", "sidebar"})
	}
	if !a.taskActive() {
		keys = append(keys, [2]string{"ctrl+c", "quit"})
	}
	right := "following"
	if !a.follow {
		right = "paused"
		if a.unread > 0 {
			right += fmt.Sprintf(" · %d new", a.unread)
		}
		right += " · end follows"
	}
	if a.truncated > 0 {
		right += " · truncated"
	}
	rw := cellWidth(right)
	var out line
	used := 0
	for i, k := range keys {
		seg := line{span(k[0], theme.Muted), span(" "+k[1], theme.Subtle)}
		if i > 0 {
			seg = append(line{span(" • ", theme.Separator)}, seg...)
		}
		if used+lineWidth(seg)+rw+6 > l.w-2 {
			out = append(out, span(" ...", theme.Subtle))
			break
		}
		out = append(out, seg...)
		used += lineWidth(seg)
	}
	a.p.put(1, l.footer, l.w-2-rw-1, out)
	a.p.put(l.w-1-rw, l.footer, rw, line{span(right, theme.Muted)})
}
