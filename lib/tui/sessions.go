package tui

import (
	"fmt"
	"sort"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/josecorral/fluzo/lib/port"
	"github.com/josecorral/fluzo/lib/tui/pager"
)

// The sessions view (Ctrl+S) lists the workspace's history from the
// port's sessions query, a bounded window searched by the store. Opening
// a session is read-only inspection: its tasks (the session query) and a
// task's replay timeline (the replay query, lib/observe's), paged in a
// bounded window. It never starts a run, contacts a provider or changes
// authorization; resuming is the separate "r", which first shows what
// resuming would find and drop (resume.go).

// Window sizes: the bound on what the view holds is pageSize x maxPages
// rows, whatever the history holds (pager.Window.MaxRows).
const (
	sessionsPage      = 50
	sessionsPages     = 3
	timelinePage      = 200
	timelinePages     = 3
	maxSessionTasks   = 200 // tasks of one opened session kept for the selector
	maxTimelineFields = 240 // bytes of one shown field of a timeline row
)

type sessionRow struct {
	ID        string         `json:"id"`
	Title     string         `json:"title"`
	Synthetic bool           `json:"synthetic"`
	CreatedAt time.Time      `json:"created_at"`
	Tasks     map[string]int `json:"tasks"`
}

type timelineRow struct {
	Kind    string    `json:"type"`
	Seq     int64     `json:"seq"`
	TS      time.Time `json:"ts"`
	Actor   string    `json:"actor"`
	Action  string    `json:"action"`
	Policy  string    `json:"policy"`
	Outcome string    `json:"outcome"`
}

type sessionsView struct {
	query     string
	list      *pager.Window[sessionRow]
	open      *sessionRow // the opened session; nil: the list
	tasks     []taskRow   // its tasks, oldest first
	tasksMore bool
	task      int // the task whose timeline shows
	timeline  *pager.Window[timelineRow]
	// asked maps a request id to the window request it answers, so a late
	// answer of an older search or session is dropped.
	asked map[string]pager.Request
	// timelineReqs are the asked ids that are replay pages.
	timelineReqs map[string]bool
	// sessionReq is the session query in flight.
	sessionReq           string
	listTop, timelineTop int // first shown row of each window
	// refused is the last refusal of one of the view's queries, shown in
	// the view (the overlay hides the conversation's notice) until the
	// next query goes out or an answer arrives.
	refused string
}

func sessionsAvail(a *App) string { return tasksAvail(a) }

func (a *App) openSessions() {
	a.sv = sessionsView{list: pager.New[sessionRow](sessionsPage, sessionsPages), asked: map[string]pager.Request{}, timelineReqs: map[string]bool{}}
	a.fetchSessions()
	a.openDialog(dialogSessions)
}

// fetchSessions sends what the list window wants, if anything.
func (a *App) fetchSessions() {
	if r, ok := a.sv.list.Want(); ok {
		a.sv.refused = ""
		id := a.send(port.Sessions(a.sv.query, int(r.Cursor), sessionsPage))
		a.sv.asked[id] = r
	}
}

func (a *App) fetchTimeline() {
	if a.sv.timeline == nil || a.sv.task >= len(a.sv.tasks) {
		return
	}
	if r, ok := a.sv.timeline.Want(); ok {
		a.sv.refused = ""
		id := a.send(port.Replay(a.sv.tasks[a.sv.task].ID, r.Cursor, timelinePage))
		a.sv.asked[id], a.sv.timelineReqs[id] = r, true
	}
}

// sessionsAck takes the answers of the view's queries; false: not ours.
func (a *App) sessionsAck(cmd string, ack *port.Ack) bool {
	switch cmd {
	case "sessions":
		a.sessionsPageAck(ack)
	case "session":
		a.sessionAck(ack)
	case "replay":
		a.replayAck(ack)
	case "resume_preview":
		a.previewAck(ack)
	default:
		return false
	}
	return true
}

// sessionsFailed settles a refused query of the view, so the window asks
// again instead of waiting for an answer that will not come; the refusal
// is shown as every refusal is, and in the view itself.
func (a *App) sessionsFailed(e *port.ErrorReply) {
	re := e.Re
	if re != "" && re == a.sv.sessionReq {
		a.sv.sessionReq = ""
		a.sv.refused = refusalText(e) + " · esc, then enter asks again"
		return
	}
	if _, ok := a.sv.asked[re]; !ok {
		return
	}
	a.sv.refused = refusalText(e) + " · a move (↑/↓) asks again"
	delete(a.sv.asked, re)
	if a.sv.timelineReqs[re] {
		delete(a.sv.timelineReqs, re)
		if a.sv.timeline != nil {
			a.sv.timeline.Failed()
		}
		return
	}
	if a.sv.list != nil {
		a.sv.list.Failed()
	}
}

func (a *App) sessionsPageAck(ack *port.Ack) {
	r, ok := a.sv.asked[ack.Re]
	delete(a.sv.asked, ack.Re)
	var d struct {
		Sessions []sessionRow `json:"sessions"`
		More     bool         `json:"more"`
	}
	if !ok || a.sv.list == nil || !decodeData(ack.Data, &d) {
		return
	}
	for i := range d.Sessions {
		d.Sessions[i].Title = clipField(d.Sessions[i].Title)
	}
	a.sv.list.Arrive(pager.Page[sessionRow]{Gen: r.Gen, Cursor: r.Cursor, Next: r.Cursor + int64(len(d.Sessions)), More: d.More, Rows: d.Sessions})
	a.fetchSessions()
}

func (a *App) sessionAck(ack *port.Ack) {
	if ack.Re != a.sv.sessionReq || a.sv.open == nil {
		return
	}
	a.sv.sessionReq, a.sv.refused = "", ""
	var d struct {
		Tasks []taskRow `json:"tasks"`
	}
	if !decodeData(ack.Data, &d) {
		a.setNotice("the session answer could not be read")
		return
	}
	if len(d.Tasks) > maxSessionTasks { // the newest are the ones kept
		d.Tasks, a.sv.tasksMore = d.Tasks[len(d.Tasks)-maxSessionTasks:], true
	}
	for i := range d.Tasks {
		d.Tasks[i].Request = clipField(d.Tasks[i].Request)
	}
	a.sv.tasks = d.Tasks
	a.selectSessionTask(len(d.Tasks) - 1)
}

func (a *App) replayAck(ack *port.Ack) {
	r, ok := a.sv.asked[ack.Re]
	delete(a.sv.asked, ack.Re)
	delete(a.sv.timelineReqs, ack.Re)
	var d struct {
		Entries []timelineRow `json:"entries"`
		Next    int64         `json:"next"`
		More    bool          `json:"more"`
	}
	if !ok || a.sv.timeline == nil || !decodeData(ack.Data, &d) {
		return
	}
	for i := range d.Entries {
		e := &d.Entries[i]
		e.Actor, e.Action, e.Policy, e.Outcome = clipField(e.Actor), clipField(e.Action), clipField(e.Policy), clipField(e.Outcome)
	}
	a.sv.timeline.Arrive(pager.Page[timelineRow]{Gen: r.Gen, Cursor: r.Cursor, Next: d.Next, More: d.More, Rows: d.Entries})
	a.fetchTimeline()
}

// clipField sanitizes and bounds one shown field, so a row's bytes are
// bounded as the rows are counted.
func clipField(s string) string { return truncate(safeLine(s), maxTimelineFields, "…") }

func (a *App) openSession(s sessionRow) {
	a.sv.refused = ""
	a.sv.open, a.sv.tasks, a.sv.tasksMore, a.sv.task, a.sv.timeline = &s, nil, false, 0, nil
	a.sv.sessionReq = a.send(port.SessionOf(s.ID))
}

// selectSessionTask shows task i's timeline from its first page.
func (a *App) selectSessionTask(i int) {
	if i < 0 || i >= len(a.sv.tasks) {
		return
	}
	a.sv.task = i
	a.sv.timeline = pager.New[timelineRow](timelinePage, timelinePages)
	a.fetchTimeline()
}

func (a *App) sessionsKey(ev *tcell.EventKey) {
	if a.sv.open != nil {
		a.sessionDetailKey(ev)
		return
	}
	switch ev.Key() {
	case tcell.KeyEscape, tcell.KeyCtrlS:
		a.dialog = dialogNone
	case tcell.KeyUp:
		a.sv.list.Move(-1)
	case tcell.KeyDown:
		a.sv.list.Move(1)
	case tcell.KeyPgUp:
		a.sv.list.Move(-10)
	case tcell.KeyPgDn:
		a.sv.list.Move(10)
	case tcell.KeyBackspace, tcell.KeyBackspace2, tcell.KeyCtrlH:
		if r := []rune(a.sv.query); len(r) > 0 {
			a.searchSessions(string(r[:len(r)-1]))
		}
	case tcell.KeyCtrlU:
		a.searchSessions("")
	case tcell.KeyEnter:
		if s, ok := a.sv.list.Selected(); ok {
			a.openSession(s)
		}
	case tcell.KeyRune:
		if len(a.sv.query)+len(string(ev.Rune())) <= maxQuery {
			a.searchSessions(a.sv.query + string(ev.Rune()))
		}
	}
	a.fetchSessions()
}

// searchSessions restarts the list under the new search (the store
// filters, so the search covers the whole history, not just the window).
func (a *App) searchSessions(q string) {
	a.sv.query = q
	a.sv.list.Reset()
}

func (a *App) sessionDetailKey(ev *tcell.EventKey) {
	tl := a.sv.timeline
	switch ev.Key() {
	case tcell.KeyEscape:
		a.sv.open, a.sv.tasks, a.sv.timeline = nil, nil, nil
		return
	case tcell.KeyLeft, tcell.KeyBacktab:
		a.selectSessionTask(a.sv.task - 1)
	case tcell.KeyRight, tcell.KeyTab:
		a.selectSessionTask(a.sv.task + 1)
	case tcell.KeyHome:
		a.selectSessionTask(a.sv.task)
	case tcell.KeyUp, tcell.KeyDown, tcell.KeyPgUp, tcell.KeyPgDn:
		if tl != nil {
			tl.Move(map[tcell.Key]int{tcell.KeyUp: -1, tcell.KeyDown: 1, tcell.KeyPgUp: -20, tcell.KeyPgDn: 20}[ev.Key()])
		}
	case tcell.KeyRune:
		if ev.Rune() == 'r' {
			a.resumeFromSession()
		}
	}
	a.fetchTimeline()
}

// resumeFromSession asks to resume the selected task: the revalidation
// shows first, and only its confirmation sends resume.
func (a *App) resumeFromSession() {
	if a.sv.task >= len(a.sv.tasks) {
		return
	}
	t := a.sv.tasks[a.sv.task]
	if !resumable(t.State, t.Reason) {
		a.setNotice("resume: task " + t.ID + " is " + t.State + "; only blocked, interrupted or failed tasks resume")
		return
	}
	a.askResume(t, dialogSessions)
}

func resumable(state, reason string) bool {
	return state == "blocked" || state == "failed" || state == "interrupted" || reason == "interrupted"
}

// sessionTaskStatus is a session's task states, e.g. "1 completed · 2 failed".
func sessionTaskStatus(tasks map[string]int) string {
	if len(tasks) == 0 {
		return "no tasks"
	}
	byLabel := make(map[string]int, len(tasks))
	for s, n := range tasks {
		byLabel[stateLabel(s, "")] += n
	}
	tasks = byLabel
	order := []string{"running", "waiting", "stopping", "queued", "blocked", "failed", "cancelled", "completed"}
	out := ""
	seen := map[string]bool{}
	add := func(s string, n int) {
		if out != "" {
			out += " · "
		}
		out += fmt.Sprint(n) + " " + safeLine(s)
		seen[s] = true
	}
	for _, s := range order {
		if n := tasks[s]; n > 0 {
			add(s, n)
		}
	}
	rest := make([]string, 0, len(tasks))
	for s := range tasks {
		if !seen[s] {
			rest = append(rest, s)
		}
	}
	sort.Strings(rest)
	for _, s := range rest {
		add(s, tasks[s])
	}
	return out
}

// refusalText is a refused query's code, message and hint on one line.
func refusalText(e *port.ErrorReply) string {
	t := "refused: " + safeLine(string(e.Error.Code)) + ": " + safeLine(e.Error.Message)
	if e.Error.Hint != "" {
		t += " (" + safeLine(e.Error.Hint) + ")"
	}
	return t
}
