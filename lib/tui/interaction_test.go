package tui

import (
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/josecorral/fluzo/lib/port"
)

const permExec = `{"operation":"op_7","tool":"exec","args":{"argv":["cargo","test"],"cwd":"crate","env":{"RUST_LOG":"x"}},"rule":"policy.shell=ask"}`

func running(h *harness) {
	h.connect()
	h.keys(typed("fix the test")...)
	h.keys(key(tcell.KeyEnter))
	h.ack(`{"state":"starting"}`)
	h.records(ev(1, "session.created", "", `{"title":"fix the test"}`), ev(2, "task.created", "", `{"request":"fix the test"}`), ev(3, "task.state", "", `{"from":"ready","to":"running"}`))
}

func TestEnterSubmitsANonEmptyDraftOnly(t *testing.T) {
	h := newHarness(t, 120, 40, Options{FPS: 60})
	h.connect()
	h.keys(key(tcell.KeyEnter))
	if got := h.port.last("start_task"); got != nil {
		t.Fatal("an empty draft must not submit")
	}
	h.clock.Advance(time.Second)
	h.keys(typed("fix the test")...)
	h.keys(key(tcell.KeyEnter), key(tcell.KeyEnter)) // a repeated Enter is debounced
	if got := h.port.last("start_task"); got == nil || got["request"] != "fix the test" {
		t.Fatalf("start_task = %v", got)
	}
	if n := strings.Count(strings.Join(h.port.cmds(), " "), "start_task"); n != 1 {
		t.Fatalf("start_task sent %d times", n)
	}
	h.mustShow("fix the test")
}

func TestPasteNeverSubmits(t *testing.T) {
	h := newHarness(t, 120, 40, Options{FPS: 60})
	h.connect()
	h.keys(pasted("line one\nline two\n")...)
	if h.port.last("start_task") != nil {
		t.Fatal("a paste with newlines submitted")
	}
	if h.app.comp.text != "line one\nline two\n" {
		t.Fatalf("draft = %q", h.app.comp.text)
	}
	// Oversized paste: capped at 8192 bytes with a notice.
	h.app.comp = composer{}
	h.keys(pasted(strings.Repeat("x", 9000))...)
	if len(h.app.comp.text) != draftMax || !h.contains("8192-byte") {
		t.Fatalf("draft %d bytes, notice %q", len(h.app.comp.text), h.app.notice)
	}
}

func TestLostPasteEndRecovers(t *testing.T) {
	h := newHarness(t, 120, 40, Options{FPS: 60})
	h.connect()
	h.keys(tcell.NewEventPaste(true), runeKey('h'), runeKey('i')) // the end marker never comes
	h.keys(key(tcell.KeyEnter))
	if h.port.last("start_task") != nil {
		t.Fatal("Enter inside the paste submitted")
	}
	h.clock.Advance(pasteTimeout + time.Millisecond)
	h.keys(key(tcell.KeyBackspace2), key(tcell.KeyEnter))
	if got := h.port.last("start_task"); got == nil || got["request"] != "hi" {
		t.Fatalf("after the paste timed out Enter must submit again: %v (draft %q)", got, h.app.comp.text)
	}
}

func TestComposerNewlinesAndHistory(t *testing.T) {
	h := newHarness(t, 120, 40, Options{FPS: 60})
	h.connect()
	h.keys(runeKey('a'), key(tcell.KeyCtrlJ), runeKey('b'), tcell.NewEventKey(tcell.KeyEnter, 0, tcell.ModShift), runeKey('c'))
	if h.app.comp.text != "a\nb\nc" || h.port.last("start_task") != nil {
		t.Fatalf("draft %q", h.app.comp.text)
	}
	if l := h.app.layout(); l.composer.h != 5 {
		t.Fatalf("3 lines: composer %d rows", l.composer.h)
	}
	h.app.comp = composer{}
	for _, s := range []string{"one", "two"} {
		h.app.comp.text = s
		h.app.comp.take()
	}
	h.keys(key(tcell.KeyUp))
	if h.app.comp.text != "two" {
		t.Fatalf("history up = %q", h.app.comp.text)
	}
	h.keys(key(tcell.KeyUp), key(tcell.KeyDown), key(tcell.KeyDown))
	if h.app.comp.text != "" {
		t.Fatalf("history back to the live draft = %q", h.app.comp.text)
	}
	for i := 0; i < 40; i++ {
		h.app.comp.text = strings.Repeat("h", i+1)
		h.app.comp.take()
	}
	if len(h.app.comp.history) != historyMax {
		t.Fatalf("history holds %d", len(h.app.comp.history))
	}
}

func TestComposerSoftWrapIsGraphemeAware(t *testing.T) {
	c := composer{text: "ab👩‍👩‍👧cd"}
	c.cursor = len(c.text)
	rows, r, col := c.visual(4)
	if len(rows) != 2 || rows[0] != "ab👩‍👩‍👧" || rows[1] != "cd" || r != 1 || col != 2 {
		t.Fatalf("rows %q cursor %d,%d", rows, r, col)
	}
	c.backspace()
	c.backspace()
	c.backspace()
	if c.text != "ab" {
		t.Fatalf("backspace removes whole clusters: %q", c.text)
	}
}

func TestApprovalNothingPreselectedArmedAndOnlyExplicitKeys(t *testing.T) {
	h := newHarness(t, 120, 40, Options{FPS: 60})
	running(h)
	h.records(ev(4, "operation.requested", "op_7", `{"tool":"exec"}`), ev(5, "permission.requested", "", permExec))
	h.mustShow("APPROVAL REQUIRED")
	for _, want := range []string{"cargo test", "cwd     crate", "env     RUST_LOG", "why     policy.shell=ask", "[a] Approve once", "[t] Approve for this task", "[d] Deny"} {
		h.mustShow(want)
	}
	if h.contains("[>") {
		t.Fatal("a choice is preselected")
	}
	// Enter and Space in the composer: never an answer.
	h.clock.Advance(time.Second)
	h.keys(key(tcell.KeyEnter), runeKey(' '), key(tcell.KeyEnter))
	// A typing burst in the composer that contains a, t, d: text only —
	// even after the card was selected in the conversation and focus came
	// back to the composer.
	h.keys(key(tcell.KeyTab), key(tcell.KeyTab))
	h.clock.Advance(time.Second)
	h.keys(typed("adt")...)
	if h.port.last("approve") != nil || h.port.last("deny") != nil {
		t.Fatal("composer keys answered the approval")
	}
	h.app.comp = composer{}
	// Focus the card; keys inside the arming window do nothing.
	h.keys(key(tcell.KeyTab))
	h.keys(runeKey('a'))
	if h.port.last("approve") != nil {
		t.Fatal("a key inside the arming window approved")
	}
	h.clock.Advance(armingWindow)
	h.keys(key(tcell.KeyEnter), runeKey(' '))
	if h.port.last("approve") != nil {
		t.Fatal("Enter or Space approved")
	}
	h.keys(runeKey('a'))
	got := h.port.last("approve")
	if got == nil || got["operation"] != "op_7" || got["scope"] != "once" {
		t.Fatalf("approve = %v", got)
	}
	h.ack(`{"operation":"op_7","verdict":"allow","scope":"once"}`)
	h.records(ev(6, "permission.resolved", "", `{"operation":"op_7","verdict":"allow"}`))
	h.mustShow("approved once")
}

func TestApprovalEscapesWhatItShowsAndAnswersTheExactOperation(t *testing.T) {
	h := newHarness(t, 120, 40, Options{FPS: 60})
	running(h)
	h.records(ev(5, "permission.requested", "", `{"operation":"op_9","tool":"write","args":{"path":"src/\u202egnp.rs\u001b[2J"},"rule":"policy.write=ask"}`))
	h.mustShow(`src/\u202egnp.rs\x1b[2J`)
	if h.contains("\u202e") || h.contains("\x1b") {
		t.Fatal("a bidi or control character reached a cell")
	}
	h.keys(key(tcell.KeyTab))
	h.clock.Advance(armingWindow)
	h.keys(runeKey('d'))
	if got := h.port.last("deny"); got == nil || got["operation"] != "op_9" {
		t.Fatalf("deny = %v", got)
	}
}

func TestStaleAndDeniedApprovalsStayVisible(t *testing.T) {
	h := newHarness(t, 120, 40, Options{FPS: 60})
	running(h)
	h.records(ev(5, "permission.requested", "", permExec))
	h.keys(key(tcell.KeyCtrlC))
	if got := h.port.last("cancel"); got == nil || got["task"] != "tsk_1" {
		t.Fatalf("cancel = %v", got)
	}
	h.mustShow("Stopping")
	h.mustShow("stale: the task moved on")
}

func TestQueuedInterventionIsEditableUntilDelivered(t *testing.T) {
	h := newHarness(t, 120, 40, Options{FPS: 60})
	running(h)
	h.clock.Advance(time.Second)
	h.keys(typed("also update docs")...)
	h.keys(key(tcell.KeyEnter))
	if got := h.port.last("queue_intervention"); got == nil || got["text"] != "also update docs" {
		t.Fatalf("queue_intervention = %v", got)
	}
	h.ack(`{"intervention":"msg_1","state":"queued"}`)
	h.mustShow("queued message · queued")
	h.clock.Advance(time.Second)
	h.keys(key(tcell.KeyUp))
	if h.app.comp.text != "also update docs" || h.app.comp.editing != "msg_1" {
		t.Fatalf("edit load: %+v", h.app.comp)
	}
	h.keys(typed(" too")...)
	h.clock.Advance(time.Second)
	h.keys(key(tcell.KeyEnter))
	if got := h.port.last("edit_intervention"); got == nil || got["intervention"] != "msg_1" || got["text"] != "also update docs too" {
		t.Fatalf("edit_intervention = %v", got)
	}
	h.records(ev(9, "intervention", "", `{"id":"msg_1","state":"delivered"}`))
	h.mustShow("queued message · delivered")
}

func TestForceStopNeedsConfirmationDefaultKeepsRunning(t *testing.T) {
	h := newHarness(t, 120, 40, Options{FPS: 60})
	running(h)
	h.keys(key(tcell.KeyCtrlC))
	h.ack(`{"task":"tsk_1","state":"stopping"}`)
	h.keys(key(tcell.KeyCtrlC))
	h.mustShow("Force stop the task?")
	h.mustShow("[>Keep stopping gracefully<]")
	h.clock.Advance(time.Second)
	h.keys(key(tcell.KeyEnter))
	if h.port.last("force_stop") != nil {
		t.Fatal("the default forced a stop")
	}
	h.keys(key(tcell.KeyCtrlC))
	h.keys(runeKey('f')) // inside the arming window
	h.clock.Advance(time.Second)
	h.keys(key(tcell.KeyEscape))
	if h.port.last("force_stop") != nil || h.port.last("cancel") == nil {
		t.Fatal("closing the dialog must change nothing")
	}
	h.keys(key(tcell.KeyCtrlC))
	h.clock.Advance(time.Second)
	h.keys(runeKey('f'))
	if got := h.port.last("force_stop"); got == nil || got["yes"] != true {
		t.Fatalf("force_stop = %v", got)
	}
}

func TestQuitWithADraftAsksFirst(t *testing.T) {
	h := newHarness(t, 120, 40, Options{FPS: 60})
	h.connect()
	h.keys(typed("unsent")...)
	h.keys(key(tcell.KeyCtrlC))
	if h.app.quitting {
		t.Fatal("quit without asking")
	}
	h.mustShow("[>Keep editing<]")
	h.clock.Advance(time.Second)
	h.keys(key(tcell.KeyEnter))
	if h.app.quitting || h.app.comp.text != "unsent" {
		t.Fatal("the default must keep editing")
	}
	h.keys(key(tcell.KeyCtrlC))
	h.clock.Advance(time.Second)
	h.keys(runeKey('q'))
	if !h.app.quitting {
		t.Fatal("q confirms the discard")
	}
}

func TestYoloNeedsConfirmationAndIsLabelledEverywhere(t *testing.T) {
	h := newHarness(t, 120, 40, Options{FPS: 60})
	h.connect()
	h.mustShow("NORMAL")
	h.keys(key(tcell.KeyCtrlY))
	h.mustShow("Still holds: explicit denials, budgets, limits")
	h.mustShow("version checks")
	h.keys(runeKey('y')) // inside the arming window
	h.clock.Advance(time.Second)
	h.keys(key(tcell.KeyEnter)) // the default keeps NORMAL
	if h.port.last("set_yolo") != nil {
		t.Fatal("YOLO without an explicit confirmation")
	}
	h.keys(key(tcell.KeyCtrlY))
	h.clock.Advance(time.Second)
	h.keys(runeKey('y'))
	if got := h.port.last("set_yolo"); got == nil || got["on"] != true {
		t.Fatalf("set_yolo = %v", got)
	}
	h.ack(`{"yolo":true,"scope":"session"}`)
	text := h.screenText()
	side, prompt := false, false
	for y, row := range text {
		if strings.Contains(row[min(len(row), 87):], "YOLO") {
			side = true
		}
		if y >= 33 && y <= 37 && strings.Contains(row, "YOLO") {
			prompt = true
		}
	}
	if !side || !prompt || h.contains("NORMAL") {
		t.Fatalf("YOLO label: sidebar %v prompt %v\n%s", side, prompt, strings.Join(text, "\n"))
	}
	// Compact: in the state line of the header.
	h.scr.SetSize(80, 24)
	h.app.wake(batch{resize: true})
	if !strings.Contains(h.screenText()[2], "YOLO") {
		t.Fatalf("compact header: %q", h.screenText()[2])
	}
}

func TestFollowIsExplicitAndAPausedViewNeverMoves(t *testing.T) {
	h := newHarness(t, 80, 24, Options{FPS: 60})
	running(h)
	for i := 0; i < 40; i++ {
		h.records(delta("line\n\n"))
	}
	h.keys(key(tcell.KeyTab), key(tcell.KeyPgUp))
	if h.app.follow {
		t.Fatal("scrolling up must pause")
	}
	view := func() string {
		var rows []string
		for _, r := range h.screenText()[3:16] {
			rows = append(rows, r[:min(len(r), 60)]) // text only: the scrollbar thumb may move
		}
		return strings.Join(rows, "\n")
	}
	before := view()
	for i := 0; i < 20; i++ {
		h.records(delta("more\n\n"))
	}
	if after := view(); after != before {
		t.Fatalf("streaming moved a paused view:\n%s\n---\n%s", before, after)
	}
	h.mustShow("paused · 20 new")
	h.keys(key(tcell.KeyEnd))
	if !h.app.follow || !h.contains("following") {
		t.Fatal("End follows again")
	}
}

func TestStreamingDoesNotRelayOutOlderItems(t *testing.T) {
	h := newHarness(t, 120, 40, Options{FPS: 60})
	running(h)
	for i := 0; i < 50; i++ {
		h.records(ev(10+i, "operation.requested", "op_x", `{"tool":"view"}`))
	}
	h.records(delta("start"))
	before := h.app.stats.layouts
	h.records(delta(" more"))
	if got := h.app.stats.layouts - before; got != 1 {
		t.Fatalf("a delta laid out %d items, want only the streaming one", got)
	}
}

func TestToolCardCollapsesAndSpaceExpands(t *testing.T) {
	h := newHarness(t, 120, 40, Options{FPS: 60})
	running(h)
	out := strings.Repeat("row\n", 25)
	h.records(ev(4, "operation.requested", "op_1", `{"tool":"exec"}`),
		ev(5, "command.result", "", `{"command":"cargo test","exit_code":101,"output_tail":"`+strings.ReplaceAll(out, "\n", `\n`)+`"}`),
		ev(6, "operation.result", "op_1", `{"to":"failed"}`))
	h.mustShow("exit 101")
	h.mustShow("15 more lines · Space to expand")
	h.keys(key(tcell.KeyTab))
	h.app.selected = 1
	h.keys(runeKey(' '))
	if h.contains("more lines") {
		t.Fatal("Space must expand the card in place")
	}
}

func TestCopyOnlyOnExplicitKey(t *testing.T) {
	h := newHarness(t, 120, 40, Options{FPS: 60})
	running(h)
	h.records(delta("see:\n```\nfn main() {}\n```\n"))
	if got := h.scr.GetClipboardData(); len(got) != 0 {
		t.Fatalf("clipboard written without a key: %q", got)
	}
	h.keys(key(tcell.KeyTab), runeKey('c'))
	if got := string(h.scr.GetClipboardData()); got != "fn main() {}" {
		t.Fatalf("copied %q", got)
	}
}

func TestResizeBelowMinimumKeepsDraftAndFocus(t *testing.T) {
	h := newHarness(t, 120, 40, Options{FPS: 60})
	h.connect()
	h.keys(typed("keep me")...)
	h.scr.SetSize(50, 12)
	h.app.wake(batch{resize: true})
	h.mustShow("Resize required")
	h.mustShow("minimum 60x16")
	h.keys(typed("!")...)
	h.scr.SetSize(120, 40)
	h.app.wake(batch{resize: true})
	if h.app.comp.text != "keep me" || h.app.focus != focusComposer {
		t.Fatalf("draft %q focus %v", h.app.comp.text, h.app.focus)
	}
	h.mustShow("keep me")
}

func TestBusyWorkspaceSaysWho(t *testing.T) {
	h := newHarness(t, 120, 40, Options{FPS: 60})
	h.app.phase = phaseLoading
	h.app.wake(batch{lost: busyLost()})
	h.mustShow("Another process owns this workspace")
	h.mustShow("pid      4242")
	h.mustShow("since    2026-12-01 18:00:00 UTC")
	h.mustShow("read-only")
	h.keys(typed("x")...)
	h.keys(key(tcell.KeyEnter))
	if h.port.last("start_task") != nil {
		t.Fatal("a busy workspace must not start tasks")
	}
}

func TestLostPortIsShownAtOnce(t *testing.T) {
	h := newHarness(t, 120, 40, Options{FPS: 60})
	h.app.begin()
	h.app.wake(batch{lost: &port.LostError{ExitCode: 3, Stderr: "fluzo-agent: no configuration file at /w/.fluzo\nhint: run 'fluzo init'"}})
	h.mustShow("Disconnected from fluzo-agent serve")
	h.mustShow("no configuration file at /w/.fluzo")
	h.mustShow("disconnected")
}

// A call that asked no approval has no arguments in its events: when it
// ends, the card is completed from the task query (args and result).
func TestToolCardsAreFilledFromTheTaskQuery(t *testing.T) {
	h := newHarness(t, 120, 40, Options{FPS: 0})
	running(h)
	h.records(`{"v":1,"id":"evt_4","seq":4,"ts":"2026-12-01T18:00:00Z","type":"operation.requested","session":"ses_1","task":"tsk_1","attempt":"att_1","operation":"op_v","data":{"tool":"view"}}`,
		`{"v":1,"id":"evt_5","seq":5,"ts":"2026-12-01T18:00:00Z","type":"operation.result","session":"ses_1","task":"tsk_1","attempt":"att_1","operation":"op_v","data":{"tool":"view","from":"dispatched","to":"succeeded"}}`)
	got := h.port.last("task")
	if got == nil || got["task"] != "tsk_1" {
		t.Fatalf("task query = %v", got)
	}
	h.ack(`{"task":{"id":"tsk_1"},"attempts":[],"operations":{"att_1":[{"id":"op_v","tool":"view","args":{"path":"src/lib.rs"},"state":"succeeded","result":{"ok":true,"result":{"path":"src/lib.rs","content":"pub fn count() {}\n","first_line":1,"lines_shown":1,"total_lines":1}}}]},"grants":[]}`)
	h.mustShow("src/lib.rs")
	h.mustShow("pub fn count() {}")
}

func TestOnlyContentDeltasAreConversationTextAndRestartVoidsThem(t *testing.T) {
	h := newHarness(t, 120, 40, Options{FPS: 0})
	running(h)
	h.records(`{"v":1,"type":"live.delta","task":"tsk_1","kind":"tool_call","text":"{\"argv\":"}`,
		`{"v":1,"type":"live.delta","task":"tsk_1","kind":"reasoning","text":"secret thoughts"}`,
		`{"v":1,"type":"live.delta","task":"tsk_1","kind":"content","text":"half an ans"}`)
	h.mustShow("half an ans")
	if h.contains("argv") || h.contains("secret thoughts") {
		t.Fatal("tool-call fragments or reasoning shown as the answer")
	}
	h.records(`{"v":1,"type":"live.delta","task":"tsk_1","kind":"restart"}`, `{"v":1,"type":"live.delta","task":"tsk_1","kind":"content","text":"a whole answer"}`)
	if h.contains("half an ans") || !h.contains("a whole answer") {
		t.Fatal("a provider restart must void the partial text")
	}
}

func TestHelpOverlayKeepsDraftAndNeverCancels(t *testing.T) {
	h := newHarness(t, 120, 40, Options{FPS: 0})
	running(h)
	h.keys(typed("half typed")...)
	h.keys(key(tcell.KeyCtrlG))
	h.helpPageShowing("Composer enter")
	h.keys(key(tcell.KeyEscape), key(tcell.KeyTab), key(tcell.KeyF1))
	h.helpPageShowing("Approval a · t · d")
	h.helpPageShowing("Never answer")
	h.keys(key(tcell.KeyEscape), key(tcell.KeyTab))
	h.keys(key(tcell.KeyEscape))
	if h.app.dialog != dialogNone || h.app.comp.text != "half typed" || h.port.last("cancel") != nil || h.app.focus != focusComposer {
		t.Fatalf("closing help must change nothing: dialog %v draft %q", h.app.dialog, h.app.comp.text)
	}
}
