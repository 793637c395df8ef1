package tui

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/josecorral/fluzo/lib/tui/notify"
)

const (
	failedResult    = `{"v":1,"type":"result","status":"provider_error","task":"tsk_01JABCDEFGH0000000FAILED1","verification":{"completed":false,"verification":"not_run"},"error":{"code":"provider_error","message":"the model endpoint answered 401"}}`
	completedResult = `{"v":1,"type":"result","status":"completed","task":"tsk_01JABCDEFGH000000COMPLETE","verification":{"completed":true,"verification":"passed"}}`
)

// idleWithToasts: an idle screen with notices of each severity, one of
// them delivered twice and one more than max_visible, so the stack shows
// its count, its pending aggregate and its colours.
func idleWithToasts(h *harness) {
	h.connect()
	h.app.toast("info:long", notify.Info, "Wide text 漢字のテスト 👩‍👩‍👧‍👦 e\u0301 "+strings.Repeat("long ", 30), "", deskNone, "")
	h.records(`{"v":1,"type":"live.warning","message":"store almost full"}`, `{"v":1,"type":"live.warning","message":"store almost full"}`, failedResult)
	h.app.toast("result:tsk_2::budget_exhausted", notify.Warning, "Task tsk_2 blocked: budget exhausted", "ctrl+r resumes (asks)", deskNone, "")
}

// The stack at every baseline size and the minimum, in three palettes.
func TestToastSnapshots(t *testing.T) {
	for _, sz := range [][2]int{{60, 16}, {80, 24}, {120, 40}, {160, 50}} {
		for _, vr := range viewVariants {
			name := fmt.Sprintf("toasts-%dx%d-%s", sz[0], sz[1], vr.name)
			t.Run(name, func(t *testing.T) {
				opts := vr.opts
				h := newHarness(t, sz[0], sz[1], opts)
				idleWithToasts(h)
				h.app.dirty.all = true
				h.app.render()
				checkGolden(t, filepath.Join("testdata", "snapshots", name+".txt"), snapshot(h))
			})
		}
	}
}

// toastRows is the screen rows a toast occupies (its top border rows).
func toastTops(h *harness) []int {
	var ys []int
	for _, hit := range h.app.notes.hits {
		ys = append(ys, hit.box.y)
	}
	return ys
}

// On resize the visible count follows the free rows, down to zero,
// without discarding a notice or changing the setting; a toast never
// reaches the composer, the footer or the sidebar, and never overlaps
// another.
func TestToastsFollowTheRoomOnResize(t *testing.T) {
	h := newHarness(t, 160, 50, Options{})
	idleWithToasts(h)
	shown := map[int]bool{}
	for _, sz := range [][2]int{{160, 50}, {120, 40}, {80, 24}, {60, 16}, {59, 16}, {120, 40}} {
		h.scr.SetSize(sz[0], sz[1])
		h.app.wake(batch{resize: true})
		l := h.app.layout()
		want := 0
		if !l.tooSmall {
			free := l.conv.bottom() - (l.conv.y + h.app.rowsTot - h.app.scroll)
			want = min(3, max(free+1, 0)/toastStep)
		}
		got := len(h.app.notes.hits)
		shown[got] = true
		if got != want {
			t.Errorf("%dx%d: %d toasts shown, want %d", sz[0], sz[1], got, want)
		}
		prev := -1
		for _, hit := range h.app.notes.hits {
			b := hit.box
			if b.y < l.conv.y || b.bottom() > l.conv.bottom() || b.x < l.conv.x || b.right() > l.conv.right() {
				t.Errorf("%dx%d: toast %+v leaves the conversation %+v", sz[0], sz[1], b, l.conv)
			}
			if b.y <= prev {
				t.Errorf("%dx%d: toasts overlap", sz[0], sz[1])
			}
			prev = b.bottom()
		}
		if h.app.notes.q.Len() != 4 || h.app.notes.q.Config().MaxVisible != 3 {
			t.Fatalf("%dx%d: a resize discarded notices or changed max_visible", sz[0], sz[1])
		}
	}
	if !shown[3] || !shown[0] || !shown[1] {
		t.Fatalf("the sizes should show 3, 1 and 0 toasts: %v", shown)
	}
}

// A toast covers nothing the conversation drew: a full view shows none.
func TestToastsUseOnlyFreeRows(t *testing.T) {
	h := newHarness(t, 120, 40, Options{})
	running(h)
	h.records(failedResult)
	if len(h.app.notes.hits) != 1 {
		t.Fatalf("%d toasts with free rows", len(h.app.notes.hits))
	}
	used := h.app.layout().conv.y + h.app.rowsTot - h.app.scroll
	if top := toastTops(h)[0]; top < used {
		t.Fatalf("the toast starts at row %d, inside the conversation's rows (to %d)", top, used)
	}
	for i := 0; i < 40; i++ {
		h.records(ev(100+i, "message", "", fmt.Sprintf(`{"role":"assistant","content":"line %d"}`, i)))
	}
	if len(h.app.notes.hits) != 0 || h.app.notes.q.Len() != 1 {
		t.Fatalf("a full view shows %d toasts (retained %d)", len(h.app.notes.hits), h.app.notes.q.Len())
	}
	h.mustShow("line 39")
}

// Typing while a toast shows goes to the composer: a toast never takes
// focus, and Enter submits the draft, never the toast.
func TestToastNeverTakesFocus(t *testing.T) {
	h := newHarness(t, 120, 40, Options{})
	h.connect()
	h.records(failedResult)
	if len(h.app.notes.hits) != 1 {
		t.Fatal("no toast on screen")
	}
	h.keys(typed("next task")...)
	if h.app.comp.text != "next task" || h.app.focus != focusComposer {
		t.Fatalf("draft %q focus %v", h.app.comp.text, h.app.focus)
	}
	h.mustShow("next task")
	h.clock.Advance(time.Second)
	h.keys(key(tcell.KeyEnter))
	if got := h.port.last("start_task"); got == nil || got["request"] != "next task" {
		t.Fatalf("Enter with a toast up: %v", got)
	}
}

// Dismissing by key or by the x never approves, denies, resumes or
// cancels, and an approval or failure stays in task state once its toast
// is gone (dismissed or expired).
func TestDismissNeverApprovesOrResumes(t *testing.T) {
	h := newHarness(t, 120, 40, Options{})
	running(h)
	h.records(ev(4, "operation.requested", "op_7", `{"tool":"exec"}`), ev(5, "permission.requested", "", permExec))
	h.records(`{"v":1,"type":"live.warning","message":"disk"}`)
	if h.app.notes.q.Len() != 2 || len(h.app.notes.hits) != 2 {
		t.Fatalf("retained %d shown %d", h.app.notes.q.Len(), len(h.app.notes.hits))
	}
	before := strings.Join(h.port.cmds(), " ")
	h.keys(key(tcell.KeyTab)) // the card is focused: its letters would answer it
	h.clock.Advance(armingWindow)
	h.keys(tcell.NewEventKey(tcell.KeyCtrlX, 'x', tcell.ModCtrl))
	btn := h.app.notes.hits[0].btn
	h.app.wake(batch{events: []tcell.Event{tcell.NewEventMouse(btn.x+1, btn.y, tcell.Button1, 0), tcell.NewEventMouse(btn.x+1, btn.y, 0, 0)}})
	if h.app.notes.q.Len() != 0 {
		t.Fatalf("%d notices left after ctrl+x and a click on x", h.app.notes.q.Len())
	}
	if after := strings.Join(h.port.cmds(), " "); after != before {
		t.Fatalf("dismissing sent commands: %q then %q", before, after)
	}
	if it := h.pendingCard(); it == nil || h.app.phase != phaseWaiting {
		t.Fatal("the approval left task state with its toast")
	}
	h.mustShow("Waiting for your approval")
	// Expiry: a failure's toast goes, its result card and phase stay.
	h.records(failedResult)
	h.clock.Advance(notify.DefaultDuration)
	h.app.wake(batch{tick: true})
	if h.app.notes.q.Len() != 0 || h.app.phase != phaseFailed || !h.contains("Failed · provider_error") {
		t.Fatalf("after expiry: %d notices, phase %v", h.app.notes.q.Len(), h.app.phase)
	}
}

func (h *harness) pendingCard() *item { return h.app.pendingApproval() }

// An approval's toast leaves when the card is answered: the card says so.
func TestApprovalToastLeavesWhenAnswered(t *testing.T) {
	h := newHarness(t, 120, 40, Options{})
	running(h)
	h.records(ev(4, "operation.requested", "op_7", `{"tool":"exec"}`), ev(5, "permission.requested", "", permExec))
	if h.app.notes.q.Len() != 1 {
		t.Fatal("no approval toast")
	}
	h.records(ev(6, "permission.resolved", "", `{"operation":"op_7","verdict":"approved"}`))
	if h.app.notes.q.Len() != 0 {
		t.Fatal("the approval toast outlived its answer")
	}
}

// A click on a toast's body does nothing, and does not reach what it
// covers.
func TestToastBodyClickDoesNothing(t *testing.T) {
	h := newHarness(t, 120, 40, Options{Mouse: true})
	h.connect()
	h.records(failedResult)
	b := h.app.notes.hits[0].box
	h.app.wake(batch{events: []tcell.Event{tcell.NewEventMouse(b.x+3, b.y+1, tcell.Button1, 0), tcell.NewEventMouse(b.x+3, b.y+1, 0, 0)}})
	if h.app.notes.q.Len() != 1 || h.app.focus != focusComposer {
		t.Fatalf("a body click: %d notices, focus %v", h.app.notes.q.Len(), h.app.focus)
	}
}

// A burst of 1000 port warnings keeps the stack bounded and says how
// many were dropped; the same event replayed is counted, not stacked.
func TestToastBurstAndDuplicates(t *testing.T) {
	h := newHarness(t, 120, 40, Options{})
	h.connect()
	var lines []string
	for i := 0; i < 1000; i++ {
		lines = append(lines, fmt.Sprintf(`{"v":1,"type":"live.warning","message":"warning %d"}`, i))
	}
	h.records(lines...)
	if h.app.notes.q.Len() != notify.MaxRetained || !h.contains(fmt.Sprintf("+%d more · %d dropped", notify.MaxRetained-3, 1000-notify.MaxRetained)) {
		t.Fatalf("retained %d:\n%s", h.app.notes.q.Len(), strings.Join(h.screenText(), "\n"))
	}
	h2 := newHarness(t, 120, 40, Options{})
	h2.connect()
	h2.records(completedResult, completedResult, completedResult)
	if h2.app.notes.q.Len() != 1 || !h2.contains("completed x3") {
		t.Fatalf("duplicates: %d notices", h2.app.notes.q.Len())
	}
}

// Notification settings come from the port's settings: valid values
// apply, an out-of-range one keeps the prior value and says so by key.
func TestNotificationSettingsFromThePort(t *testing.T) {
	h := newHarness(t, 120, 40, Options{})
	h.app.begin()
	h.records(`{"v":1,"type":"ack","re":"1","data":{"cursor":0,"running":{"session":"","task":"","attempt":"","trace":""},"seqs":{},"tasks":[]}}`,
		`{"v":1,"type":"ack","re":"2","data":{"settings":[{"key":"tui.notifications.duration_seconds","value":30},{"key":"tui.notifications.max_visible","value":9},{"key":"tui.notifications.desktop_enabled","value":true}]}}`)
	cfg := h.app.notes.q.Config()
	if cfg.Duration != 30*time.Second || cfg.MaxVisible != notify.DefaultVisible || !h.app.notes.desk.enabled {
		t.Fatalf("config %+v desktop %v", cfg, h.app.notes.desk.enabled)
	}
	h.mustShow("tui.notifications.max_visible = 9 rejected")
}

// Expiry runs from receipt for notices still pending: after the
// duration none of them surfaces, whatever room appears later.
func TestPendingToastsExpireUnseen(t *testing.T) {
	h := newHarness(t, 120, 40, Options{})
	h.connect()
	for i := 0; i < 6; i++ {
		h.app.toast(fmt.Sprint("n", i), notify.Info, fmt.Sprint("notice ", i), "", deskNone, "")
	}
	h.app.wake(batch{})
	if len(h.app.notes.hits) != 3 || !h.contains("+3 more") {
		t.Fatalf("%d shown", len(h.app.notes.hits))
	}
	h.tickOnce(notify.DefaultDuration)
	if h.app.notes.q.Len() != 0 || h.contains("notice 5") {
		t.Fatalf("%d notices after their duration", h.app.notes.q.Len())
	}
}

// Desktop notifications: opt-in, only after an observed focus-out, once
// per event, a fixed template through the sanitizer.
func TestDesktopNotificationNeedsOptInAndBlur(t *testing.T) {
	run := func(enabled bool, focus ...bool) string {
		h := newHarness(t, 120, 40, Options{})
		var out bytes.Buffer
		h.app.notes.desk.out, h.app.notes.desk.proto = &out, protoOSC777
		h.connect()
		h.app.notes.desk.enabled = enabled
		for _, f := range focus {
			h.keys(tcell.NewEventFocus(f))
		}
		h.records(completedResult, completedResult)
		return out.String()
	}
	want := "\x1b]777;notify;Fluzo: task completed;task tsk_COMPLETE\x1b\\"
	if got := run(true, false); got != want {
		t.Fatalf("blurred: %q, want %q", got, want)
	}
	for name, got := range map[string]string{"never reported": run(true), "focus back": run(true, false, true), "disabled": run(false, false)} {
		if got != "" {
			t.Errorf("%s: a desktop notification %q", name, got)
		}
	}
}

func TestDesktopProtocolByTerminal(t *testing.T) {
	for _, c := range []struct {
		env  map[string]string
		want protocol
	}{
		{map[string]string{"TERM": "xterm-256color"}, protoBell},
		{map[string]string{"TERM": "xterm-ghostty"}, protoOSC777},
		{map[string]string{"TERM": "xterm-256color", "TERM_PROGRAM": "ghostty"}, protoOSC777},
		{map[string]string{"TERM": "xterm-256color", "TERM_PROGRAM": "WezTerm"}, protoOSC777},
		{map[string]string{"TERM": "foot"}, protoOSC777},
		{map[string]string{"TERM": "xterm-kitty"}, protoOSC99},
		{map[string]string{"TERM": "xterm-256color", "KITTY_WINDOW_ID": "1"}, protoOSC99},
		{map[string]string{"TERM": "xterm-256color", "TERM_PROGRAM": "iTerm.app"}, protoOSC9},
		{map[string]string{"TERM": "xterm", "ConEmuPID": "42"}, protoOSC9},
		{map[string]string{"TERM": "xterm-kitty", "TMUX": "/tmp/tmux-1/default,1,0"}, protoBell},
		{map[string]string{"TERM": "screen-256color", "TERM_PROGRAM": "ghostty"}, protoBell},
		{map[string]string{}, protoBell},
	} {
		if got := desktopProtocol(func(k string) string { return c.env[k] }); got != c.want {
			t.Errorf("%v: protocol %d, want %d", c.env, got, c.want)
		}
	}
}

func TestDesktopSequencesCarryNoControlBytes(t *testing.T) {
	hostile := "tsk_\x1b]52;c;AAAA\x07;evil\n\u202e"
	for _, p := range []protocol{protoOSC777, protoOSC99, protoOSC9, protoBell} {
		d := desktop{proto: p}
		for _, k := range []deskKind{deskCompleted, deskBlocked, deskFailed} {
			seq := d.sequence(k, hostile)
			inner := strings.TrimSuffix(seq, "\x1b\\")
			for _, part := range strings.Split(inner, "\x1b\\") {
				body := strings.TrimPrefix(strings.TrimPrefix(strings.TrimPrefix(part, "\x1b]777;notify;"), "\x1b]9;"), "\x1b]99;")
				if strings.ContainsAny(body, "\x1b\x07\n\r\u202e") && p != protoBell {
					t.Errorf("protocol %d: %q", p, seq)
				}
			}
			if p == protoOSC777 && strings.Count(seq, ";") != 3 {
				t.Errorf("OSC 777 with extra fields: %q", seq)
			}
			if p == protoBell && seq != "\a" {
				t.Errorf("bell: %q", seq)
			}
		}
	}
}

// Blocked on input (an approval) and failed earn their own template; a
// cancelled task, a port warning or a lost backend earn none.
func TestDesktopNotificationKinds(t *testing.T) {
	h := newHarness(t, 120, 40, Options{})
	var out bytes.Buffer
	h.app.notes.desk.out, h.app.notes.desk.proto = &out, protoOSC777
	running(h)
	h.app.notes.desk.enabled = true
	h.keys(tcell.NewEventFocus(false))
	h.records(ev(4, "operation.requested", "op_7", `{"tool":"exec"}`), ev(5, "permission.requested", "", permExec))
	h.records(`{"v":1,"type":"live.warning","message":"disk"}`)
	h.records(failedResult)
	h.records(`{"v":1,"type":"result","status":"cancelled","task":"tsk_9"}`)
	want := "\x1b]777;notify;Fluzo: task blocked on input;task tsk_1\x1b\\" + "\x1b]777;notify;Fluzo: task failed;task tsk_0FAILED1\x1b\\"
	if out.String() != want {
		t.Fatalf("desktop notifications %q, want %q", out.String(), want)
	}
	if strings.Contains(out.String(), "cargo") || strings.Contains(out.String(), "fix the test") {
		t.Fatal("a command or the prompt reached a desktop notification")
	}
}

// An open dialog hides the stack; closing it shows the stack again.
func TestDialogHidesToasts(t *testing.T) {
	h := newHarness(t, 120, 40, Options{})
	h.connect()
	h.records(failedResult)
	h.keys(key(tcell.KeyCtrlP))
	if len(h.app.notes.hits) != 0 || h.contains("ctrl+d diagnostics · ctrl+x") {
		t.Fatal("a toast over a dialog")
	}
	h.keys(key(tcell.KeyEscape))
	if len(h.app.notes.hits) != 1 {
		t.Fatal("the toast did not come back after the dialog")
	}
}

// Each source raises its severity: a protocol error is a failure, a
// warning information, a refused command an error.
func TestToastSeverityBySource(t *testing.T) {
	h := newHarness(t, 160, 50, Options{})
	h.connect()
	h.records(`{"v":1,"type":"live.protocol_error","message":"bad line"}`, `{"v":1,"type":"live.warning","message":"could not record x"}`,
		`{"v":1,"type":"error","re":"9","error":{"code":"invalid_request","message":"no"}}`)
	got := map[string]notify.Severity{}
	for _, n := range h.app.notes.q.Visible(notify.MaxVisible) {
		got[n.Key] = n.Severity
	}
	want := map[string]notify.Severity{"live:protocol_error:bad line": notify.Error, "live:warning:could not record x": notify.Info, "refused:9": notify.Error}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("severities %v, want %v", got, want)
	}
}

// Overflow at every baseline size and the minimum (PRD §29.3.1's C2
// list): a burst of 1000 distinct warnings, a failure and replays of a
// warning
// keeps 32 notices, drops the oldest information first, counts the rest
// in one bounded aggregate (never as notices), shows as many toasts as
// the free rows hold — never over the composer, the footer or the
// sidebar, never overlapping — and leaves the draft and focus alone.
func TestToastOverflowAtEverySize(t *testing.T) {
	// want is what the free rows below the failure's card hold: one toast
	// at 80x24, max_visible from 120x40, none at the minimum.
	for _, sz := range [][3]int{{80, 24, 1}, {120, 40, 3}, {160, 50, 3}, {minW, minH, 0}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			h := newHarness(t, sz[0], sz[1], Options{})
			var desk bytes.Buffer
			h.app.notes.desk.out = &desk
			h.connect()
			h.keys(typed("my draft")...)
			lines := make([]string, 0, 1003)
			for i := 0; i < 1000; i++ {
				lines = append(lines, fmt.Sprintf(`{"v":1,"type":"live.warning","message":"warning %d"}`, i))
			}
			lines = append(lines, failedResult)
			for i := 0; i < 5; i++ {
				lines = append(lines, `{"v":1,"type":"live.warning","message":"warning 999"}`)
			}
			h.records(lines...)
			q := h.app.notes.q
			if q.Len() != notify.MaxRetained || q.Dropped() != 1001-notify.MaxRetained {
				t.Fatalf("retained %d, dropped %d; want %d and %d", q.Len(), q.Dropped(), notify.MaxRetained, 1001-notify.MaxRetained)
			}
			var failures, replayed int
			q.RemoveIf(func(n notify.Notice) bool { // a read-only walk: removes nothing
				if n.Severity == notify.Error {
					failures++
				}
				if n.Key == "live:warning:warning 999" {
					replayed = n.Count
				}
				return false
			})
			if first := q.Visible(1)[0].Key; first != "live:warning:warning 969" || failures != 1 || replayed != 6 {
				t.Fatalf("oldest kept %s, %d failures, the replayed warning x%d: the oldest information goes first, the failure stays, replays coalesce",
					first, failures, replayed)
			}
			l := h.app.layout()
			slots := toastSlots(h.app.toastArea(l).h)
			shown := len(h.app.notes.hits)
			if shown != min(notify.DefaultVisible, slots) || shown != sz[2] {
				t.Fatalf("%d toasts shown for %d slots, want %d:\n%s", shown, slots, sz[2], strings.Join(h.screenText(), "\n"))
			}
			if shown > 0 {
				h.mustShow(fmt.Sprintf("+%d more · %d dropped", notify.MaxRetained-shown, 1001-notify.MaxRetained))
			}
			if n := strings.Count(strings.Join(h.screenText(), "\n"), "ctrl+x dismisses"); n != shown {
				t.Fatalf("%d toasts drawn, %d recorded", n, shown)
			}
			prev := -1
			for _, hit := range h.app.notes.hits {
				b := hit.box
				if overlaps(b, l.composer) || overlaps(b, l.sidebar) || b.bottom() > l.footer || b.y < prev {
					t.Errorf("toast %+v covers the composer %+v, the sidebar %+v, the footer row %d or the toast above", b, l.composer, l.sidebar, l.footer)
				}
				prev = b.bottom()
			}
			if h.app.comp.text != "my draft" || h.app.focus != focusComposer || desk.Len() != 0 {
				t.Fatalf("draft %q focus %v desktop %q", h.app.comp.text, h.app.focus, desk.String())
			}
		})
	}
}

func overlaps(a, b rect) bool {
	return a.w > 0 && b.w > 0 && a.x < b.right() && b.x < a.right() && a.y < b.bottom() && b.y < a.bottom()
}

// Ctrl+X dismisses only a toast the person can see: at the minimum size
// (no room) the notice stays and says why; once shown, Ctrl+X and the
// palette's entry (run after the palette closes) dismiss it.
func TestDismissOnlyWhatIsOnScreen(t *testing.T) {
	h := newHarness(t, minW, minH, Options{})
	h.connect()
	h.app.toast("a", notify.Warning, "first notice", "", deskNone, "")
	h.app.toast("b", notify.Info, "second notice", "", deskNone, "")
	h.app.wake(batch{})
	if len(h.app.notes.hits) != 0 {
		t.Fatalf("%d toasts at the minimum size", len(h.app.notes.hits))
	}
	h.keys(tcell.NewEventKey(tcell.KeyCtrlX, 'x', tcell.ModCtrl))
	if h.app.notes.q.Len() != 2 {
		t.Fatal("ctrl+x dismissed a notice that was never on screen")
	}
	h.mustShow("none on screen")
	h.scr.SetSize(120, 40)
	h.app.wake(batch{resize: true})
	h.keys(tcell.NewEventKey(tcell.KeyCtrlX, 'x', tcell.ModCtrl))
	if h.app.notes.q.Len() != 1 || h.contains("first notice") || !h.contains("second notice") {
		t.Fatalf("ctrl+x on screen: %d left", h.app.notes.q.Len())
	}
	h.keys(key(tcell.KeyCtrlP))
	h.keys(typed("dismiss")...)
	h.keys(key(tcell.KeyEnter))
	if h.app.notes.q.Len() != 0 || h.app.dialog != dialogNone {
		t.Fatalf("the palette's dismiss: %d left, dialog %v", h.app.notes.q.Len(), h.app.dialog)
	}
}

// An approval card and its status rows are never covered: at 80x24 they
// leave no free rows and no toast shows (the notice waits); at 120x40 the
// toasts sit below the last of those rows.
func TestToastsNeverCoverAnApproval(t *testing.T) {
	for _, sz := range [][3]int{{80, 24, 0}, {120, 40, 2}} {
		h := newHarness(t, sz[0], sz[1], Options{})
		running(h)
		h.records(ev(4, "operation.requested", "op_7", `{"tool":"exec"}`), ev(5, "permission.requested", "", permExec))
		h.records(`{"v":1,"type":"live.warning","message":"disk"}`)
		if len(h.app.notes.hits) != sz[2] || h.app.notes.q.Len() != 2 {
			t.Fatalf("%dx%d: %d toasts shown of %d, want %d", sz[0], sz[1], len(h.app.notes.hits), h.app.notes.q.Len(), sz[2])
		}
		last := max(h.rowOf("Tab focuses this card"), h.rowOf("tab focuses the card"))
		for _, hit := range h.app.notes.hits {
			if hit.box.y <= last {
				t.Errorf("%dx%d: a toast at row %d covers the approval (to row %d)", sz[0], sz[1], hit.box.y, last)
			}
		}
		h.mustShow("[a] Approve once")
	}
}
