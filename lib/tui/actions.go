package tui

import (
	"github.com/gdamore/tcell/v2"
	"github.com/josecorral/fluzo/lib/port"
)

// The action registry is the one list of what a person can do: the global
// key router dispatches from it, the command palette searches it and the
// help overlay prints it, so a key, its action and its description can
// never disagree.

// scope says where an action's keys work (the help's Context column).
type scope string

const (
	scopeGlobal   scope = "Global"
	scopeComposer scope = "Composer"
	scopeChat     scope = "Chat"
	scopeApproval scope = "Approval"
	scopeView     scope = "Views"
	scopeMouse    scope = "Mouse"
)

// binding is one key that runs an action through the global router. A
// Ctrl chord matches on its key alone (terminals differ on the modifier
// bits they report); needCtrl is for keys that mean something else without
// Ctrl (End).
type binding struct {
	key      tcell.Key
	r        rune
	needCtrl bool
	// when gates the binding: false lets the key through to the focused
	// region ('h' is a letter except in a read-only workspace).
	when func(a *App) bool
}

// action is one registry entry. keys is what the help and palette show;
// bind lists the keys the global router dispatches (scoped keys are
// handled by the composer and conversation and only described here). run
// nil: a key-only entry (newline, scroll a row) the palette does not list.
type action struct {
	scope scope
	keys  string
	title string
	bind  []binding
	// avail says why the action cannot run now; "" means it can.
	avail func(a *App) string
	run   func(a *App)
}

func always(*App) string { return "" }

func ctrl(k tcell.Key) binding { return binding{key: k} }

// registry lists every action in help order. It is filled by init: its
// entries call methods that read it (an initialization cycle otherwise).
var registry []action

func init() {
	registry = []action{
		{scopeGlobal, "ctrl+p · /", "Command palette", []binding{ctrl(tcell.KeyCtrlP)}, always, (*App).openPalette},
		{scopeGlobal, "ctrl+g · f1", "Help: keys for this context", []binding{ctrl(tcell.KeyCtrlG), {key: tcell.KeyF1}}, always, (*App).openHelp},
		{scopeGlobal, "tab", "Switch composer / conversation focus", []binding{{key: tcell.KeyTab}, {key: tcell.KeyBacktab}}, always, (*App).toggleFocus},
		{scopeGlobal, "ctrl+c", "Cancel the task; again: force stop (asks); idle: quit", []binding{ctrl(tcell.KeyCtrlC)}, nil, nil},
		{scopeGlobal, "ctrl+c", "Cancel the running task", nil, cancelAvail, (*App).cancelTask},
		{scopeGlobal, "ctrl+c twice", "Force stop the task (asks first)", nil, forceStopAvail, (*App).askForceStop},
		{scopeGlobal, "ctrl+c (idle)", "Quit fluzo-tui", nil, quitAvail, (*App).quit},
		{scopeGlobal, "ctrl+t", "Tasks of this session", []binding{ctrl(tcell.KeyCtrlT)}, tasksAvail, (*App).openTasks},
		{scopeGlobal, "ctrl+d", "Diagnostics of the task", []binding{ctrl(tcell.KeyCtrlD)}, diagAvail, (*App).openDiag},
		{scopeGlobal, "ctrl+f", "Diff & verification of the task (read-only)", []binding{ctrl(tcell.KeyCtrlF)}, diffAvail, (*App).openDiff},
		{scopeGlobal, "f2", "Settings: every key, grouped; apply or save to .fluzo", []binding{{key: tcell.KeyF2}}, settingsAvail, (*App).openSettings},
		{scopeGlobal, "f3", "Theme: live preview; esc restores", []binding{{key: tcell.KeyF3}}, themeAvail, (*App).openThemePicker},
		{scopeGlobal, "f4", "Developer menu (--dev-menu or tui.dev_menu)", []binding{{key: tcell.KeyF4}}, devMenuAvail, (*App).openDevMenu},
		{scopeGlobal, "ctrl+y", "YOLO on / off (asks)", []binding{ctrl(tcell.KeyCtrlY)}, always, func(a *App) { a.openDialog(dialogYolo) }},
		{scopeGlobal, "ctrl+s", "Sessions: the workspace's history (read-only)", []binding{ctrl(tcell.KeyCtrlS)}, sessionsAvail, (*App).openSessions},
		{scopeGlobal, "ctrl+r", "Resume an interrupted, blocked or failed task (asks)", []binding{ctrl(tcell.KeyCtrlR)}, resumeAvail, (*App).askResumeCurrent},
		{scopeGlobal, "ctrl+b", "Hide / show the sidebar", []binding{ctrl(tcell.KeyCtrlB)}, always, func(a *App) { a.sidebarOff = !a.sidebarOff }},
		{scopeGlobal, "ctrl+o", "Mouse capture on / off", []binding{ctrl(tcell.KeyCtrlO)}, always, (*App).toggleMouse},
		{scopeGlobal, "ctrl+l", "Redraw the screen", []binding{ctrl(tcell.KeyCtrlL)}, always, func(a *App) { a.scr.Sync() }},
		{scopeGlobal, "ctrl+end", "Follow the output", []binding{{key: tcell.KeyEnd, needCtrl: true}}, always, (*App).followNow},
		{scopeGlobal, "ctrl+x", "Dismiss the oldest notification", []binding{ctrl(tcell.KeyCtrlX)}, toastAvail, (*App).dismissToast},
		{scopeGlobal, "h (read-only)", "Read the stored history of a busy workspace", []binding{{key: tcell.KeyRune, r: 'h', when: isBusy}}, busyAvail, (*App).loadReadOnly},
		{scopeComposer, "enter", "Submit the draft (queued while a task runs)", nil, submitAvail, (*App).submit},
		{scopeComposer, "shift+enter · ctrl+j", "Newline", nil, nil, nil},
		{scopeComposer, "ctrl+a/e/h/u/k", "Line start / end / backspace / delete before / after", nil, nil, nil},
		{scopeComposer, "up / down", "History; up when empty edits a queued message", nil, nil, nil},
		{scopeComposer, "pgup / pgdn", "Scroll the conversation", nil, nil, nil},
		{scopeChat, "up/down j/k", "Scroll a row (up pauses following)", nil, nil, nil},
		{scopeChat, "shift+up/down K/J", "Select the previous / next item", nil, nil, nil},
		{scopeChat, "pgup/pgdn b/f · u/d", "Page · half page", nil, nil, nil},
		{scopeChat, "g / G", "Top (again: older history) / bottom and follow", nil, nil, nil},
		{scopeChat, "space", "Expand / collapse the selected tool card", nil, expandAvail, (*App).toggleExpand},
		{scopeChat, "c · y", "Copy the selected message (OSC 52)", nil, copyAvail, (*App).copySelected},
		{scopeApproval, "a · t · d", "Approve once · for this task · deny", nil, answerOnCard, func(*App) {}},
		{scopeApproval, "enter · space", "Never answer a card", nil, nil, nil},
		{scopeView, "type · ↑/↓ · enter", "Search · select · open or run", nil, nil, nil},
		{scopeView, "esc", "Close; focus, draft and scroll return as they were", nil, nil, nil},
		{scopeView, "c · y (diagnostics)", "Copy the task's trace ID (OSC 52)", nil, traceAvail, (*App).copyTrace},
		{scopeView, "v (diff)", "Show / hide the verification: command, exit, output", nil, nil, nil},
		{scopeMouse, "wheel · click", "Scroll · select an item, again: expand a tool (ctrl+o)", nil, nil, nil},
	}
}

// globalAction finds the registry entry a global key runs, if any.
func (a *App) globalAction(ev *tcell.EventKey) *action {
	for i := range registry {
		for _, b := range registry[i].bind {
			if b.matches(a, ev) {
				return &registry[i]
			}
		}
	}
	return nil
}

func (b binding) matches(a *App, ev *tcell.EventKey) bool {
	if ev.Key() != b.key || b.key == tcell.KeyRune && ev.Rune() != b.r {
		return false
	}
	if b.needCtrl && ev.Modifiers()&tcell.ModCtrl == 0 {
		return false
	}
	return b.when == nil || b.when(a)
}

// runAction runs an entry if it can run, else says why.
func (a *App) runAction(act *action) {
	if act.run == nil { // the composite Ctrl+C
		a.ctrlC()
		return
	}
	if why := act.avail(a); why != "" {
		a.setNotice(act.title + ": " + why)
		return
	}
	act.run(a)
}

func isBusy(a *App) bool { return a.phase == phaseBusy }

func busyAvail(a *App) string {
	if !isBusy(a) {
		return "only while another process owns the workspace"
	}
	return ""
}

func cancelAvail(a *App) string {
	switch {
	case a.phase == phaseStopping:
		return "the task is already stopping"
	case !a.taskActive():
		return "no task is running"
	case a.task.id == "":
		return "the task has no id yet"
	}
	return ""
}

func forceStopAvail(a *App) string {
	if !a.taskActive() || a.task.id == "" {
		return "no task is running"
	}
	return ""
}

func quitAvail(a *App) string {
	if a.taskActive() {
		return "a task is running: cancel it first"
	}
	return ""
}

func resumeAvail(a *App) string {
	if a.phase == phaseInterrupted || a.phase == phaseBlocked || a.phase == phaseFailed {
		return ""
	}
	return "no interrupted, blocked or failed task"
}

func submitAvail(a *App) string {
	switch {
	case a.comp.empty():
		return "the draft is empty"
	case a.phase == phaseBusy || a.phase == phaseLost:
		return "the workspace is read-only"
	}
	return ""
}

func expandAvail(a *App) string {
	if it := a.selectedItem(); a.focus == focusChat && it != nil && it.kind == itemTool {
		return ""
	}
	return "select a tool card in the conversation first (tab)"
}

func copyAvail(a *App) string {
	if a.focus == focusChat && a.selectedItem() != nil {
		return ""
	}
	return "select an item in the conversation first (tab)"
}

// answerOnCard: an approval is answered only by its letter on the focused
// card, never from the palette, so a search cannot approve anything.
func answerOnCard(*App) string { return "answered only on the focused card: tab, then a, t or d" }

func (a *App) cancelTask() {
	a.send(port.Cancel(a.task.id))
	a.phase = phaseStopping
	a.staleApprovals()
}

func (a *App) askForceStop() { a.openDialog(dialogForceStop) }

func (a *App) quit() {
	if !a.comp.empty() {
		a.openDialog(dialogQuit)
		return
	}
	a.quitting = true
}
