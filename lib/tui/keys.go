package tui

import (
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/josecorral/fluzo/lib/port"
)

// enterDebounce drops an Enter that repeats another within this time
// (tcell reports no key repeat flag).
const enterDebounce = 30 * time.Millisecond

// pasteTimeout ends a paste whose end marker never came: after this long
// without paste input the next key is an ordinary key again.
const pasteTimeout = 500 * time.Millisecond

func (a *App) input(ev tcell.Event) {
	a.dirty.all = true
	switch ev := ev.(type) {
	case *tcell.EventPaste:
		a.pasteEdge(ev.Start())
	case *tcell.EventKey:
		a.key(ev)
	case *tcell.EventMouse:
		a.mouse(ev)
	case *tcell.EventFocus:
		a.terminalFocus(ev)
	}
}

func (a *App) pasteEdge(start bool) {
	now := a.clock.Now()
	if start {
		a.pasting, a.pasteBytes, a.pasteCut, a.pasteSeen = true, 0, false, now
		return
	}
	a.pasting = false
	if a.pasteCut {
		a.setNotice("paste cut at the 8192-byte draft limit")
	}
}

func (a *App) key(ev *tcell.EventKey) {
	now := a.clock.Now()
	if a.pasting && now-a.pasteSeen > pasteTimeout {
		// The paste end was lost: recover instead of staying in paste mode.
		a.pasting = false
	}
	if a.pasting {
		a.pasteSeen = now
		a.pasteKey(ev)
		return
	}
	if a.dialog != dialogNone {
		a.dialogKey(ev)
		return
	}
	if a.layout().tooSmall {
		a.tooSmallKey(ev)
		return
	}
	if act := a.globalAction(ev); act != nil {
		a.runAction(act)
		return
	}
	if a.focus == focusComposer && ev.Key() == tcell.KeyRune && ev.Rune() == '/' && a.comp.empty() && a.comp.editing == "" {
		a.openPalette() // "/" in an empty composer: the palette (TUI-REFERENCE §4.1)
		return
	}
	if a.focus == focusChat {
		a.chatKey(ev)
		return
	}
	a.composerKey(ev)
}

// pasteKey inserts pasted keys as text; a paste never submits.
func (a *App) pasteKey(ev *tcell.EventKey) {
	var s string
	switch ev.Key() {
	case tcell.KeyEnter, tcell.KeyCtrlJ:
		s = "\n"
	case tcell.KeyTab:
		s = "    "
	case tcell.KeyRune:
		s = string(ev.Rune())
	default:
		return
	}
	if a.dialog != dialogNone || a.focus != focusComposer {
		return // paste only inserts into the composer
	}
	a.pasteBytes += len(s)
	if !a.comp.insert(safeText(s)) {
		a.pasteCut = true
	}
}

func (a *App) composerKey(ev *tcell.EventKey) {
	c := &a.comp
	switch ev.Key() {
	case tcell.KeyEnter:
		if ev.Modifiers()&tcell.ModShift != 0 {
			c.insert("\n")
			return
		}
		a.submit()
	case tcell.KeyCtrlJ:
		c.insert("\n")
	case tcell.KeyBackspace, tcell.KeyBackspace2, tcell.KeyCtrlH:
		c.backspace()
	case tcell.KeyDelete:
		c.deleteForward()
	case tcell.KeyLeft:
		c.left()
	case tcell.KeyRight:
		c.right()
	case tcell.KeyHome, tcell.KeyCtrlA:
		c.lineStart()
	case tcell.KeyEnd, tcell.KeyCtrlE:
		c.lineEnd()
	case tcell.KeyCtrlU:
		c.killBefore()
	case tcell.KeyCtrlK:
		c.killAfter()
	case tcell.KeyUp:
		if c.empty() && a.editLastIntervention() {
			return
		}
		if !c.multiline() {
			c.historyPrev()
		}
	case tcell.KeyDown:
		if !c.multiline() {
			c.historyNext()
		}
	case tcell.KeyPgUp:
		a.scrollBy(-a.layout().conv.h)
	case tcell.KeyPgDn:
		a.scrollBy(a.layout().conv.h)
	case tcell.KeyEscape:
		if c.editing != "" {
			a.stopEditing()
		}
	case tcell.KeyRune:
		if !c.insert(string(ev.Rune())) {
			a.setNotice("the draft is at its 8192-byte limit")
		}
	}
}

// submit sends a non-empty draft: a new task when idle, a queued
// intervention while one runs, an edit while editing a queued one.
func (a *App) submit() {
	now := a.clock.Now()
	if now-a.lastEnter < enterDebounce {
		return
	}
	a.lastEnter = now
	if a.comp.empty() || a.phase == phaseBusy || a.phase == phaseLost {
		return
	}
	if a.phase == phaseLoading {
		// Typed before serve answered: sent as soon as the snapshot says
		// the workspace is idle (snapshot submits it).
		a.opts.Submit = true
		a.setNotice("connecting to fluzo-agent serve: the draft is sent once it is ready")
		return
	}
	if id := a.comp.editing; id != "" {
		s := a.comp.take()
		a.saveEdit(id, s)
		return
	}
	s := a.comp.take()
	if a.taskActive() {
		iv := &intervention{text: safeText(s), state: "sending", task: a.task.id}
		iv.reqID = a.send(port.QueueIntervention(s))
		a.addItem(&item{kind: itemIntervention, interv: iv})
		a.followNow()
		return
	}
	a.addItem(&item{kind: itemUser, text: safeText(s)})
	a.task = taskInfo{request: safeText(s), startedAt: now}
	a.phase = phaseRunning
	a.send(port.StartTask(s, "", false, nil))
	a.followNow()
}

func (a *App) taskActive() bool {
	return a.phase == phaseRunning || a.phase == phaseWaiting || a.phase == phaseStopping
}

// editLastIntervention loads the newest queued intervention into the
// composer for editing (Up in an empty composer).
func (a *App) editLastIntervention() bool {
	for i := len(a.items) - 1; i >= 0; i-- {
		it := a.items[i]
		if it.kind == itemIntervention && it.interv.state == "queued" && it.interv.id != "" {
			a.comp.text, a.comp.cursor, a.comp.editing = it.interv.text, len(it.interv.text), it.interv.id
			it.interv.editing = true
			it.touch()
			return true
		}
	}
	return false
}

func (a *App) stopEditing() {
	for _, it := range a.items {
		if it.kind == itemIntervention && it.interv.id == a.comp.editing {
			it.interv.editing = false
			it.touch()
		}
	}
	a.comp.text, a.comp.cursor, a.comp.editing = "", 0, ""
}

func (a *App) chatKey(ev *tcell.EventKey) {
	conv := a.layout().conv.h
	switch ev.Key() {
	case tcell.KeyUp, tcell.KeyCtrlK:
		if ev.Modifiers()&tcell.ModShift != 0 {
			a.selectBy(-1)
		} else {
			a.scrollBy(-1)
		}
	case tcell.KeyDown, tcell.KeyCtrlJ:
		if ev.Modifiers()&tcell.ModShift != 0 {
			a.selectBy(1)
		} else {
			a.scrollBy(1)
		}
	case tcell.KeyPgUp:
		a.scrollBy(-conv)
	case tcell.KeyPgDn:
		a.scrollBy(conv)
	case tcell.KeyHome:
		a.scrollTo(0)
	case tcell.KeyEnd:
		a.followNow()
	case tcell.KeyEscape:
		a.toggleFocus()
	case tcell.KeyRune:
		r := ev.Rune()
		if a.answerKey(r) {
			return
		}
		switch r {
		case 'k':
			a.scrollBy(-1)
		case 'j':
			a.scrollBy(1)
		case 'K':
			a.selectBy(-1)
		case 'J':
			a.selectBy(1)
		case 'b':
			a.scrollBy(-conv)
		case 'f':
			a.scrollBy(conv)
		case 'u':
			a.scrollBy(-conv / 2)
		case 'd':
			a.scrollBy(conv / 2)
		case 'g':
			a.scrollTo(0)
		case 'G':
			a.followNow()
		case ' ':
			a.toggleExpand()
		case 'c', 'y':
			a.copySelected()
		}
	}
}

func (a *App) toggleFocus() {
	a.focusedAt = a.clock.Now()
	if a.focus == focusComposer {
		a.focus = focusChat
		a.selected = len(a.items) - 1
		if it := a.pendingApproval(); it != nil {
			a.selected = a.indexOf(it)
		}
		a.followNow()
		return
	}
	a.focus = focusComposer
}

func (a *App) indexOf(it *item) int {
	for i, x := range a.items {
		if x == it {
			return i
		}
	}
	return len(a.items) - 1
}

func (a *App) selectedItem() *item {
	if a.selected < 0 || a.selected >= len(a.items) {
		return nil
	}
	return a.items[a.selected]
}

func (a *App) selectBy(d int) {
	a.selected = clamp(a.selected+d, 0, len(a.items)-1)
	a.focusedAt = a.clock.Now()
}

func (a *App) toggleExpand() {
	if it := a.selectedItem(); it != nil && it.kind == itemTool {
		it.tool.expanded = !it.tool.expanded
		it.touch()
	}
}

// copySelected copies the selected message (or its last code block when
// it has one) to the clipboard via OSC 52 — only on this explicit key.
func (a *App) copySelected() {
	it := a.selectedItem()
	if it == nil {
		return
	}
	s := it.text
	switch it.kind {
	case itemTool:
		s = ""
		if c := it.tool.op.Command; c != nil {
			s = safeText(c.Command + "\n" + c.OutputTail)
		}
	case itemApproval:
		s = it.approval.action
	case itemAssistant:
		// The item holds the model's raw text (markdown.Render escapes it
		// for the screen); what reaches the clipboard is escaped too.
		s = safeText(it.text)
		if n := len(it.blocks); n > 0 {
			s = it.blocks[n-1].Code // already escaped by markdown
		}
	}
	a.scr.SetClipboard([]byte(s))
	a.setNotice("copied to the clipboard (OSC 52)")
}

// ctrlC: cancel a running task (visible "stopping"); while stopping, ask
// before forcing; when idle, quit (asking first if a draft would be lost).
func (a *App) ctrlC() {
	switch {
	case a.phase == phaseStopping:
		a.openDialog(dialogForceStop)
	case a.taskActive() && a.task.id != "":
		a.cancelTask()
	case a.taskActive():
		// Submitted but not yet named by the runtime: quitting now would
		// leave it running unseen, and there is no id to cancel yet.
		a.setNotice("the task is starting: ctrl+c cancels it once it runs")
	default:
		a.quit()
	}
}

func (a *App) tooSmallKey(ev *tcell.EventKey) {
	switch ev.Key() {
	case tcell.KeyCtrlC:
		a.quitting = true // the draft is kept in memory; nothing is sent
	case tcell.KeyTab:
		a.openDialog(dialogQuit)
	}
}
