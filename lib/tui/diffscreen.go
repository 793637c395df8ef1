package tui

import (
	"fmt"

	"github.com/gdamore/tcell/v2"
	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/port"
	"github.com/josecorral/fluzo/lib/tui/diffview"
	"github.com/josecorral/fluzo/lib/tui/theme"
)

// The diff and verification view (Ctrl+F, or the palette): the task's
// changes against its baseline as the port's diff query answers them, the
// user's own earlier changes in a section of their own, one path's diff
// paged a bounded window at a time (lib/tui/diffview), and the task's last
// verification. It only reads: nothing here stages, reverts or commits.

type diffScreen struct {
	task           string
	sumReq, winReq string // the request ids of the summary and the window
	sum            *diffview.Summary
	refused        string // why the port could not answer, shown in the view
	sel            int    // selected file: task changes first, then the user's
	pager          diffview.Pager
	verify         bool // the verification panel instead of the patch
	verifyTop      int
	patchRows      int // rows the patch had at the last draw
}

func diffAvail(a *App) string {
	switch {
	case a.phase == phaseLoading || a.phase == phaseBusy || a.phase == phaseLost:
		return "needs a connected workspace"
	case a.task.id == "":
		return "no task yet: a diff is a task's changes"
	}
	return ""
}

func (a *App) openDiff() {
	a.dv = diffScreen{task: a.task.id, patchRows: 10}
	a.dv.sumReq = a.send(port.DiffOf(a.task.id))
	a.openDialog(dialogDiff)
}

// diffAck takes the answers to the view's own requests.
func (a *App) diffAck(ack *port.Ack) bool {
	switch {
	case ack.Re == "":
		return false
	case ack.Re == a.dv.sumReq:
		a.dv.sumReq = ""
		s, err := diffview.ParseSummary(ack.Data)
		if err != nil {
			a.dv.refused = safeLine(core.AsError(err).Message)
			return true
		}
		a.dv.sum = &s
		if a.dialog == dialogDiff { // closed meanwhile: nothing more to ask
			a.selectFile(0)
		}
		return true
	case ack.Re == a.dv.winReq:
		a.dv.winReq = ""
		w, err := diffview.ParseWindow(ack.Data)
		if err != nil {
			a.setNotice(safeLine(core.AsError(err).Message))
			return true
		}
		if a.dv.pager.Fill(w) {
			a.learnCounts(w)
		}
		return true
	}
	return false
}

// diffRefused shows a refusal of the view's requests in the view itself
// (a task with no ended attempt has no recorded diff yet).
func (a *App) diffRefused(e *port.ErrorReply) bool {
	if e == nil || e.Re == "" || e.Re != a.dv.sumReq && e.Re != a.dv.winReq {
		return false
	}
	msg := safeLine(e.Error.Message)
	if e.Error.Hint != "" {
		msg += " (" + safeLine(e.Error.Hint) + ")"
	}
	if e.Re == a.dv.sumReq {
		a.dv.sumReq, a.dv.refused = "", msg
	} else {
		a.dv.winReq = ""
		a.setNotice("diff window refused: " + msg)
	}
	return true
}

// learnCounts fills a path's unknown +/− counts from its streamed diff.
func (a *App) learnCounts(w diffview.Window) {
	f := a.selectedFile()
	if f == nil || f.Path != w.Path || f.Added != nil && f.Removed != nil || w.Binary {
		return
	}
	added, removed := w.Added, w.Removed
	f.Added, f.Removed = &added, &removed
}

// files counts the entries of both sections.
func (d *diffScreen) files() int {
	if d.sum == nil {
		return 0
	}
	return len(d.sum.Changes) + len(d.sum.User)
}

func (a *App) selectedFile() *diffview.File {
	s, i := a.dv.sum, a.dv.sel
	switch {
	case s == nil || i < 0:
		return nil
	case i < len(s.Changes):
		return &s.Changes[i]
	case i-len(s.Changes) < len(s.User):
		return &s.User[i-len(s.Changes)]
	}
	return nil
}

// selectFile selects entry i and asks for the first window of its diff.
func (a *App) selectFile(i int) {
	n := a.dv.files()
	if n == 0 {
		return
	}
	a.dv.sel = min(max(i, 0), n-1)
	f := a.selectedFile()
	a.askWindow(a.dv.pager.Open(f.Path, a.dv.patchRows))
}

func (a *App) askWindow(r diffview.Request) {
	a.dv.winReq = a.send(port.DiffWindow(a.dv.task, r.Path, r.Offset, r.Limit))
}

func (a *App) diffKey(ev *tcell.EventKey) {
	rows := max(a.dv.patchRows, 1)
	page := func(delta int) {
		if a.dv.verify {
			a.dv.verifyTop = max(a.dv.verifyTop+delta, 0)
			return
		}
		if r := a.dv.pager.Scroll(delta, rows); r != nil {
			a.askWindow(*r)
		}
	}
	switch ev.Key() {
	case tcell.KeyEscape, tcell.KeyCtrlF:
		a.dialog = dialogNone
	case tcell.KeyUp:
		a.selectFile(a.dv.sel - 1)
	case tcell.KeyDown:
		a.selectFile(a.dv.sel + 1)
	case tcell.KeyPgDn:
		page(rows)
	case tcell.KeyPgUp:
		page(-rows)
	case tcell.KeyHome:
		page(-1 << 30)
	case tcell.KeyEnd:
		page(1 << 30)
	case tcell.KeyRune:
		switch ev.Rune() {
		case 'j':
			page(1)
		case 'k':
			page(-1)
		case ' ', 'f':
			page(rows)
		case 'b':
			page(-rows)
		case 'v':
			a.dv.verify, a.dv.verifyTop = !a.dv.verify, 0
		case 'r': // ask again: a running task's changes move on
			a.openDiff()
		}
	}
}

// diffBox is nearly the whole screen: a diff needs the width.
func diffBox(l layout) (x, y, w, h int) { return 1, 1, l.w - 2, l.h - 2 }

func (a *App) drawDiff(l layout) {
	x, y, w, h := diffBox(l)
	a.p.clear(x, y, w, h)
	a.frame(x, y, w, h, theme.Accent)
	iw := w - 4
	a.p.put(x+2, y+1, iw, a.diffTitle())
	body := a.diffHead()
	if a.dv.refused != "" { // the refusal's message and hint, whole
		body = wrapLine(body[0], iw)
	}
	listRows := min(len(a.diffList()), max((h-6)/3, 2))
	top := y + 2
	for i, l := range body {
		a.p.put(x+2, top+i, iw, l)
	}
	top += len(body)
	list := a.diffList()
	first := listScroll(a.dv.sel+a.listHeadersBefore(), listRows, len(list))
	for i := 0; i < listRows && first+i < len(list); i++ {
		a.p.put(x+2, top+i, iw, list[first+i])
	}
	top += listRows
	bottom := y + h - 2
	if top >= bottom {
		return
	}
	a.p.put(x+2, top, iw, a.patchRule(iw))
	top++
	a.dv.patchRows = max(bottom-top+1, 1)
	if a.dv.verify {
		a.drawVerification(x+2, top, iw, a.dv.patchRows)
	} else {
		a.drawPatch(x+2, top, iw, a.dv.patchRows)
	}
	a.putHint(x+2, y+h-1, iw, " ↑/↓ file · v verification · pgup/pgdn j/k page · home/end · r refresh · esc close · never stages or commits ")
}

func (a *App) diffTitle() line {
	t := line{bold("Diff & verification", theme.Accent), span("  "+safeLine(a.dv.task), theme.Muted)}
	if s := a.dv.sum; s != nil && s.Live {
		t = append(t, span(" · live", theme.Warning))
	}
	return append(t, span(" · read-only", theme.Subtle))
}

// diffHead: the totals, whether they are partial, and the verification
// in one line.
func (a *App) diffHead() []line {
	s := a.dv.sum
	switch {
	case a.dv.refused != "":
		return []line{{span("no diff: "+a.dv.refused, theme.Warning)}}
	case s == nil:
		return []line{{span("asking the runtime for the task's changes…", theme.Muted)}}
	}
	added, removed, known := s.Totals()
	at := ""
	if !known {
		at = "≥"
	}
	out := []line{{bold(fmt.Sprintf("%d file(s) changed by the task", len(s.Changes)), theme.Base),
		span("  ", theme.Base), span(fmt.Sprintf("+%s%d", at, added), theme.Success), span(" ", theme.Base), span(fmt.Sprintf("−%s%d", at, removed), theme.Error)}}
	if p := s.Partial(); p != "" {
		out = append(out, line{span("! "+p, theme.Warning)})
	}
	if s.HeadChanged {
		out = append(out, line{span("! HEAD moved during the task: paths it committed are not listed; listed paths are diffed against the baseline commit", theme.Warning)})
	}
	return append(out, a.verificationSummary())
}

// diffList is the two sections, each path with its counts and marks.
func (a *App) diffList() []line {
	s := a.dv.sum
	if s == nil {
		return nil
	}
	var out []line
	if len(s.Changes) == 0 {
		out = append(out, line{span("the task changed no file", theme.Muted)})
	}
	for i, f := range s.Changes {
		out = append(out, a.diffFileRow(i, f))
	}
	if len(s.User) > 0 {
		out = append(out, line{bold(fmt.Sprintf("Your changes from before the task (%d, not the task's)", len(s.User)), theme.Accent)})
		for i, f := range s.User {
			out = append(out, a.diffFileRow(len(s.Changes)+i, f))
		}
	}
	return out
}

// listHeadersBefore counts the non-file rows above the selection.
func (a *App) listHeadersBefore() int {
	s := a.dv.sum
	if s == nil {
		return 0
	}
	n := 0
	if len(s.Changes) == 0 {
		n++
	}
	if a.dv.sel >= len(s.Changes) {
		n++
	}
	return n
}

func (a *App) diffFileRow(i int, f diffview.File) line {
	mark, tok := "  ", theme.Base
	if i == a.dv.sel {
		mark, tok = a.p.glyph("› ", "> "), theme.Accent
	}
	row := line{span(mark, tok), span(f.Shown, tok)}
	if f.Kind != "user" {
		row = append(row, span("  "+f.Kind, theme.Muted), span("  "+f.Counts(), theme.Subtle))
	} else {
		row = append(row, span("  yours, unchanged by the task", theme.Muted))
	}
	if at := f.Attribution(); at != "" {
		row = append(row, span("  ? "+at, theme.Warning))
	}
	return row
}

// listScroll keeps row sel visible in a list of n rows shown rows at a time.
func listScroll(sel, rows, n int) int {
	if sel < rows {
		return 0
	}
	return min(sel-rows+1, max(n-rows, 0))
}

// patchRule names the paged path and where the view is in its diff.
func (a *App) patchRule(w int) line {
	if a.dv.verify {
		return line{bold("Verification", theme.Accent)}
	}
	f := a.selectedFile()
	if f == nil {
		return line{span(a.p.glyph("─", "-"), theme.Separator)}
	}
	pos := "loading…"
	if info, ok := a.dv.pager.Info(); ok {
		top := a.dv.pager.Top()
		pos = fmt.Sprintf("lines %d–%d of %d · +%d −%d", min(top+1, info.Total), min(top+a.dv.patchRows, info.Total), info.Total, info.Added, info.Removed)
		if info.Against != "" {
			pos += " · against " + shortRev(info.Against)
		}
	}
	return line{bold(f.Shown, theme.Accent), span("  "+pos, theme.Muted)}
}

func shortRev(s string) string {
	if len(s) > 12 {
		return safeLine(s[:12])
	}
	return safeLine(s)
}

func (a *App) drawPatch(x, y, w, rows int) {
	info, ok := a.dv.pager.Info()
	switch {
	case a.selectedFile() == nil:
		return
	case ok && info.Binary:
		a.p.put(x, y, w, line{span("binary file: its content is not shown", theme.Muted)})
		return
	case ok && info.Total == 0:
		a.p.put(x, y, w, line{span("no difference now (the change was reverted, or the file is gone)", theme.Muted)})
		return
	}
	for i, r := range a.dv.pager.Visible(rows) {
		if r == nil {
			r = line{span("…", theme.Muted)}
		}
		a.p.put(x, y+i, w, r)
	}
}
