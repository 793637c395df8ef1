package tui

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"
)

const sessionsAnswer = `{"offset":0,"more":false,"sessions":[
 {"id":"ses_3","title":"rename the flag","created_at":"2026-12-01T18:00:00Z","tasks":{"failed":1}},
 {"id":"ses_2","title":"fix the test","created_at":"2026-11-30T09:30:00Z","tasks":{"completed":2,"blocked":1}},
 {"id":"ses_1","title":"","synthetic":true,"created_at":"2026-11-29T08:00:00Z","tasks":{}}]}`

const sessionAnswer = `{"session":{"id":"ses_3","title":"rename the flag"},"tasks":[
 {"id":"tsk_7","session":"ses_3","request":"rename --count to --lines","state":"failed","reason":"provider_error","created_at":"2026-12-01T18:00:00Z","updated_at":"2026-12-01T18:02:00Z"}]}`

// timelinePageAnswer is n replay entries after seq from.
func timelinePageAnswer(from, n int, more bool) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		if i > 1 {
			b.WriteString(",")
		}
		seq := from + i
		switch seq % 4 {
		case 1:
			fmt.Fprintf(&b, `{"type":"replay.step","seq":%d,"ts":"2026-12-01T18:00:%02dZ","actor":"model","action":"request exec","outcome":"requested","event":"operation.requested"}`, seq, seq%60)
		case 2:
			fmt.Fprintf(&b, `{"type":"replay.step","seq":%d,"ts":"2026-12-01T18:00:%02dZ","actor":"policy","action":"decide exec","policy":"ask · exec default","outcome":"waiting","event":"operation.decision"}`, seq, seq%60)
		case 3:
			fmt.Fprintf(&b, `{"type":"replay.gap","seq":%d,"ts":"2026-12-01T18:00:%02dZ","actor":"store","action":"events %d..%d missing","outcome":"gap: history incomplete","event":"gap"}`, seq, seq%60, seq, seq)
		default:
			fmt.Fprintf(&b, `{"type":"replay.step","seq":%d,"ts":"2026-12-01T18:00:%02dZ","actor":"tool","action":"result exec","outcome":"failed · exit 101","event":"operation.result"}`, seq, seq%60)
		}
	}
	return fmt.Sprintf(`{"task":"tsk_7","entries":[%s],"next":%d,"more":%v}`, b.String(), from+n, more)
}

const previewAnswer = `{"preview":{"task":"tsk_7","state":"failed","resumable":true,
 "workspace":{"recorded":{"branch":"main","head":"4bf92f3577b34da6"},"current":{"branch":"main","head":"4bf92f3577b34da6"},"moved":false,"identity":true},
 "files":{"checked":3,"stale":[{"path":"src/main.rs","recorded_version":"aa","current_version":"bb"}]},
 "unknown_operations":[{"id":"op_9","tool":"exec"}],
 "dropped_grants":[{"id":"grt_1","spec":"exec:cargo test","scope":"task","state":"issued"}],
 "yolo_before":true,"yolo_now":false,"carried_turns":4,"carried_tokens":1500}}`

const movedPreviewAnswer = `{"preview":{"task":"tsk_7","state":"failed","resumable":true,
 "refusal":"the workspace moved since the task ran: check out main at 4bf92f3577b3 again",
 "workspace":{"recorded":{"branch":"main","head":"4bf92f3577b34da6"},"current":{"branch":"topic","head":"0011223344556677"},"moved":true,"identity":true},
 "files":{"checked":0,"stale":[]},"unknown_operations":[],"dropped_grants":[],"yolo_before":false,"yolo_now":false,"carried_turns":1,"carried_tokens":0}}`

// openSessionsView opens the list (Ctrl+S) and answers it.
func openSessionsView(h *harness) {
	h.keys(key(tcell.KeyCtrlS))
	h.ack(sessionsAnswer)
}

// openFailedSession opens the first listed session and answers its
// session and first replay page.
func openFailedSession(h *harness) {
	openSessionsView(h)
	h.keys(key(tcell.KeyEnter))
	h.ack(sessionAnswer)
	h.ack(timelinePageAnswer(0, 12, false))
}

func TestSessionsViewListsAndSearchesTheStore(t *testing.T) {
	h := newHarness(t, 120, 40, Options{FPS: 0})
	h.connect()
	openSessionsView(h)
	if got := h.port.last("sessions"); got == nil || got["limit"] != sessionsPage {
		t.Fatalf("the list asks for a bounded page: %v", got)
	}
	h.mustShow("rename the flag")
	h.mustShow("1 blocked · 2 completed")
	h.mustShow("(untitled) [synthetic]")
	h.keys(typed("fix")...)
	if got := h.port.last("sessions"); got["match"] != "fix" {
		t.Fatalf("the search goes to the store: %v", got)
	}
	// The answer for the first key arrives after "fix" was typed: stale.
	h.ackN(h.port.n-2, `{"sessions":[{"id":"ses_9","title":"stale answer","created_at":"2026-12-01T18:00:00Z","tasks":{}}],"more":false}`)
	if h.contains("stale answer") {
		t.Fatal("an answer to an older search was shown")
	}
	h.ack(`{"sessions":[{"id":"ses_2","title":"fix the test","created_at":"2026-11-30T09:30:00Z","tasks":{"completed":1}}],"more":false}`)
	h.mustShow("fix the test")
	if h.contains("rename the flag") {
		t.Fatal("the search did not replace the list")
	}
}

// Opening a session only reads: its tasks and its replay timeline. No
// command that runs, resumes or authorizes anything is sent, and the
// current task is untouched.
func TestOpeningASessionIsReadOnly(t *testing.T) {
	h := newHarness(t, 120, 40, Options{FPS: 0})
	h.connect()
	before := len(h.port.cmds())
	task, phase := h.app.task, h.app.phase
	openFailedSession(h)
	h.keys(key(tcell.KeyDown), key(tcell.KeyPgDn), key(tcell.KeyLeft), key(tcell.KeyRight), key(tcell.KeyHome))
	h.ack(timelinePageAnswer(0, 12, false))
	h.mustShow("decide exec")
	h.mustShow("events 3..3 missing")
	h.mustShow("tsk_7")
	for _, c := range h.port.cmds()[before:] {
		if c != "sessions" && c != "session" && c != "replay" {
			t.Fatalf("opening a session sent %q (sent: %v)", c, h.port.cmds()[before:])
		}
	}
	if got := h.port.last("replay"); got["task"] != "tsk_7" || got["limit"] != timelinePage {
		t.Fatalf("the timeline is lib/observe's replay of the task, paged: %v", got)
	}
	if h.app.task != task || h.app.phase != phase {
		t.Fatalf("opening a session changed the current task: %+v %v", h.app.task, h.app.phase)
	}
}

// A long timeline is paged: the view holds at most its window, however
// many entries the task has (counted, not timed).
func TestTimelineHoldsABoundedWindow(t *testing.T) {
	h := newHarness(t, 120, 40, Options{FPS: 0})
	h.connect()
	openSessionsView(h)
	h.keys(key(tcell.KeyEnter))
	h.ack(sessionAnswer)
	h.ack(timelinePageAnswer(0, timelinePage, true))
	const pages = 40 // 8000 entries
	for p := 1; p < pages; p++ {
		for h.app.sv.timeline.Sel() < h.app.sv.timeline.Len()-timelinePage/2 {
			h.keys(key(tcell.KeyPgDn))
		}
		got := h.port.last("replay")
		if got["after"] != int64(p*timelinePage) {
			t.Fatalf("page %d: asked after %v", p, got["after"])
		}
		h.ack(timelinePageAnswer(p*timelinePage, timelinePage, p < pages-1))
		tl := h.app.sv.timeline
		if tl.Len() > timelinePage*timelinePages {
			t.Fatalf("page %d: the view holds %d entries, bound %d", p, tl.Len(), timelinePage*timelinePages)
		}
		bytes := 0
		for _, e := range tl.Rows() {
			bytes += len(e.Actor) + len(e.Action) + len(e.Policy) + len(e.Outcome)
		}
		if bytes > timelinePage*timelinePages*4*maxTimelineFields {
			t.Fatalf("page %d: %d bytes of text held", p, bytes)
		}
	}
	for i := 0; i < 2*timelinePages*timelinePage/20; i++ {
		h.keys(key(tcell.KeyPgDn))
	}
	if e, _ := h.app.sv.timeline.Selected(); e.Seq != int64(pages*timelinePage) {
		t.Fatalf("at the end the last entry is selected: seq %d", e.Seq)
	}
	h.mustShow(fmt.Sprintf("step %d", pages*timelinePage))
}

// Resume from a session shows the revalidation first; only its
// deliberate confirmation sends resume.
func TestResumeShowsWhatChangedAndAsks(t *testing.T) {
	h := newHarness(t, 120, 40, Options{FPS: 0})
	h.connect()
	openFailedSession(h)
	h.keys(runeKey('r'))
	if h.port.last("resume") != nil || h.port.last("resume_preview")["task"] != "tsk_7" {
		t.Fatalf("r asks for the revalidation only: %v", h.port.cmds())
	}
	h.mustShow("checking what changed")
	h.ack(previewAnswer)
	for _, s := range []string{"workspace: unchanged, main at 4bf92f3577b3", "src/main.rs", "dropped: 1 grant(s) (exec:cargo test)",
		"dropped: YOLO of an earlier attempt", "1 operation(s) with an unknown outcome: not replayed", "carried forward: 4 turn(s), 1500 token(s)"} {
		h.mustShow(s)
	}
	h.keys(key(tcell.KeyEnter), runeKey('r')) // inside the arming window: ignored
	if h.port.last("resume") != nil {
		t.Fatal("a key in the arming window resumed")
	}
	h.keys(key(tcell.KeyEscape)) // "Not now" returns to the session
	if h.app.dialog != dialogSessions || h.app.sv.open == nil || h.port.last("resume") != nil {
		t.Fatalf("declining returns to the session: dialog %v", h.app.dialog)
	}
	h.keys(runeKey('r'))
	h.ack(previewAnswer)
	h.clock.Advance(armingWindow)
	h.keys(runeKey('r'))
	if got := h.port.last("resume"); got == nil || got["task"] != "tsk_7" {
		t.Fatalf("the confirmation resumes the task: %v", h.port.cmds())
	}
	if h.app.dialog != dialogNone || h.app.task.id != "tsk_7" || h.app.phase != phaseRunning {
		t.Fatalf("after resume the conversation follows the task: %v %+v", h.app.dialog, h.app.task)
	}
}

// While a task runs nothing else may start (one writer): resume is not
// even asked for.
// A refused page (the store could not be read) is shown as a refusal and
// does not leave the view waiting: the next move asks again.
func TestARefusedTimelinePageIsAskedAgain(t *testing.T) {
	h := newHarness(t, 120, 40, Options{FPS: 0})
	h.connect()
	openSessionsView(h)
	h.keys(key(tcell.KeyEnter))
	h.ack(sessionAnswer)
	h.records(fmt.Sprintf(`{"v":1,"type":"error","re":"%d","error":{"code":"storage_error","message":"cannot query the store"}}`, h.port.n))
	h.mustShow("replay refused: storage_error")
	asked := countOf(h.port.cmds(), "replay")
	h.keys(key(tcell.KeyDown))
	if got := countOf(h.port.cmds(), "replay"); got != asked+1 {
		t.Fatalf("after a refused page the next move asks again: %d replay requests, want %d", got, asked+1)
	}
	h.ack(timelinePageAnswer(0, 5, false))
	h.mustShow("decide exec")
}

func TestResumeWaitsForTheRunningTask(t *testing.T) {
	h := newHarness(t, 120, 40, Options{FPS: 0})
	running(h)
	openFailedSession(h)
	h.keys(runeKey('r'))
	if h.port.last("resume_preview") != nil || h.app.dialog != dialogSessions {
		t.Fatalf("resume asked while a task runs: %v, dialog %v", h.port.cmds(), h.app.dialog)
	}
	h.mustShow("a task is running")
}

func TestResumeRefusedWhenTheWorkspaceMoved(t *testing.T) {
	h := newHarness(t, 120, 40, Options{FPS: 0})
	h.connect()
	openFailedSession(h)
	h.keys(runeKey('r'))
	h.ack(movedPreviewAnswer)
	h.mustShow("workspace MOVED: was main at 4bf92f3577b3, now topic at")
	h.mustShow("001122334455.")
	h.mustShow("Resume (refused)")
	h.clock.Advance(armingWindow)
	h.keys(runeKey('r'))
	if h.port.last("resume") != nil {
		t.Fatal("resume was sent although the revalidation refuses it")
	}
}

// Closing the sessions view (from the list or an opened session) leaves
// the draft, focus and scroll as they were.
func TestClosingSessionsKeepsDraftFocusAndScroll(t *testing.T) {
	h := newHarness(t, 120, 40, Options{FPS: 0})
	running(h)
	for i := 0; i < 60; i++ {
		h.records(delta(fmt.Sprintf("line %d\n\n", i)))
	}
	h.keys(key(tcell.KeyPgUp))
	h.keys(typed("half typed")...)
	scroll, follow := h.app.scroll, h.app.follow
	openFailedSession(h)
	h.keys(key(tcell.KeyDown), key(tcell.KeyEscape), key(tcell.KeyDown), key(tcell.KeyEscape))
	if h.app.dialog != dialogNone || h.app.comp.text != "half typed" || h.app.focus != focusComposer || h.app.scroll != scroll || h.app.follow != follow {
		t.Fatalf("closing changed the screen: dialog %v draft %q focus %v scroll %d/%d follow %v", h.app.dialog, h.app.comp.text, h.app.focus, h.app.scroll, scroll, h.app.follow)
	}
	if h.port.last("cancel") != nil {
		t.Fatal("closing the view cancelled the task")
	}
	h.mustShow("half typed")
}

// sessionViews are the sessions surfaces and the intervention queue for
// the snapshot goldens, at the three sizes and the minimum.
var sessionViews = []struct {
	name   string
	script func(h *harness)
}{
	{"sessions", func(h *harness) { h.connect(); openSessionsView(h) }},
	{"sessions-loading", func(h *harness) { h.connect(); h.keys(key(tcell.KeyCtrlS)) }},
	{"sessions-no-match", func(h *harness) {
		h.connect()
		openSessionsView(h)
		h.keys(typed("zzqq")...)
		h.ack(`{"sessions":[],"more":false}`)
	}},
	{"sessions-refused", func(h *harness) {
		h.connect()
		h.keys(key(tcell.KeyCtrlS))
		h.records(fmt.Sprintf(`{"v":1,"type":"error","re":"%d","error":{"code":"storage_error","message":"the store could not be read: disk I/O error","hint":"check the disk"}}`, h.port.n))
	}},
	{"session-timeline", func(h *harness) { h.connect(); openFailedSession(h); h.keys(key(tcell.KeyDown), key(tcell.KeyDown)) }},
	{"resume-checking", func(h *harness) { h.connect(); openFailedSession(h); h.keys(runeKey('r')) }},
	{"intervention-settled", func(h *harness) {
		// One withdrawn, one delivered: neither can change any more.
		queuedTwo(h)
		openTasksView(h)
		h.keys(key(tcell.KeyEnter), runeKey('x'))
		h.ack(`{"intervention":"msg_1","state":"withdrawn"}`)
		h.records(ev(5, "intervention", "", `{"id":"msg_2","state":"delivered","bytes":19}`))
		h.keys(key(tcell.KeyDown))
	}},
	{"resume-confirm", func(h *harness) { h.connect(); openFailedSession(h); h.keys(runeKey('r')); h.ack(previewAnswer) }},
	{"resume-refused", func(h *harness) { h.connect(); openFailedSession(h); h.keys(runeKey('r')); h.ack(movedPreviewAnswer) }},
	{"intervention-queue", func(h *harness) { queuedTwo(h); openTasksView(h); h.keys(key(tcell.KeyEnter), key(tcell.KeyDown)) }},
	{"intervention-edit", func(h *harness) {
		queuedTwo(h)
		openTasksView(h)
		h.keys(key(tcell.KeyEnter), runeKey('e'))
	}},
}

func TestSessionViewSnapshots(t *testing.T) {
	sizes := append(append([][2]int(nil), viewSizes...), [2]int{60, 16})
	for _, v := range sessionViews {
		for _, sz := range sizes {
			for _, vr := range viewVariants {
				name := fmt.Sprintf("view-%s-%dx%d-%s", v.name, sz[0], sz[1], vr.name)
				t.Run(name, func(t *testing.T) {
					opts := vr.opts
					opts.FPS = 0
					h := newHarness(t, sz[0], sz[1], opts)
					v.script(h)
					h.app.dirty.all = true
					h.app.render()
					checkGolden(t, filepath.Join("testdata", "snapshots", name+".txt"), snapshot(h))
				})
			}
		}
	}
}

// A refused list page or session query is shown in the view with its
// code and hint (the overlay covers the conversation's notice), never as
// a load that goes on forever; a move asks for the page again.
func TestSessionsRefusalsShowInTheView(t *testing.T) {
	h := newHarness(t, 160, 50, Options{FPS: 0})
	h.connect()
	h.keys(key(tcell.KeyCtrlS))
	h.records(fmt.Sprintf(`{"v":1,"type":"error","re":"%d","error":{"code":"storage_error","message":"the store could not be read","hint":"check the disk"}}`, h.port.n))
	h.mustShow("refused: storage_error: the store could not be read")
	h.mustShow("(check the")
	h.mustShow("disk) · a move (↑/↓) asks again")
	if h.contains("asking the runtime for the sessions") {
		t.Fatal("a refused list still says it is asking")
	}
	asked := countOf(h.port.cmds(), "sessions")
	h.keys(key(tcell.KeyDown))
	if got := countOf(h.port.cmds(), "sessions"); got != asked+1 {
		t.Fatalf("a move after the refusal asks again: %d sessions queries, want %d", got, asked+1)
	}
	h.ack(sessionsAnswer)
	if h.contains("refused: storage_error: the store") {
		t.Fatal("the refusal stays after the page arrived")
	}
	h.keys(key(tcell.KeyEnter))
	h.records(fmt.Sprintf(`{"v":1,"type":"error","re":"%d","error":{"code":"not_found","message":"no session ses_3"}}`, h.port.n))
	h.mustShow("refused: not_found: no session ses_3 · esc, then enter asks again")
	if h.contains("reading the session") || h.contains("this session has no tasks") {
		t.Fatal("a refused session query reads as loading or empty")
	}
}

// The sessions list counts a session's tasks by the states the tasks view
// shows: the store's pending and ready are one "queued", never raw.
func TestSessionTaskStatusReadsStatesAsTheTasksViewDoes(t *testing.T) {
	got := sessionTaskStatus(map[string]int{"pending": 1, "ready": 2, "completed": 1, "failed": 1})
	if want := "3 queued · 1 failed · 1 completed"; got != want {
		t.Fatalf("status %q, want %q", got, want)
	}
	if got := stateLabel("blocked", "interrupted"); got != "interrupted" {
		t.Fatalf("a task blocked by recovery reads %q", got)
	}
}

// The sessions view handles its own keys and nothing else does: Enter on
// a session opens it however long the view has been open (it fell
// through to the confirm dialogs' Enter, which closed the view once their
// arming window had passed), and Esc in a timeline goes back to the list
// (it also closed the whole view).
func TestSessionsKeysStayInTheSessionsView(t *testing.T) {
	h := newHarness(t, 120, 40, Options{FPS: 0})
	h.connect()
	openSessionsView(h)
	h.clock.Advance(2 * armingWindow)
	h.keys(key(tcell.KeyEnter))
	if h.app.dialog != dialogSessions {
		t.Fatalf("enter on a session after the arming window closed the view (dialog %v)", h.app.dialog)
	}
	h.ack(sessionAnswer)
	h.ack(timelinePageAnswer(0, 12, false))
	h.mustShow("decide exec")
	h.keys(key(tcell.KeyEscape))
	if h.app.dialog != dialogSessions || h.app.sv.open != nil {
		t.Fatalf("esc in the timeline: dialog %v, open %v; want the list", h.app.dialog, h.app.sv.open != nil)
	}
	h.mustShow("opening one is read-only")
	h.keys(key(tcell.KeyEscape))
	if h.app.dialog != dialogNone {
		t.Fatalf("esc in the list left dialog %v open", h.app.dialog)
	}
}
