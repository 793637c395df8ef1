package tui

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"
)

const liveBudgetAnswer = `"live_budget":{"live":true,"used":{"turns":null,"active_seconds":95,"tool_calls":3,"total_tokens":12500,"tokens_estimated_requests":1,"reserved_tokens":2400},"limits":{"turns":null,"active_seconds":1800,"tool_calls":100,"total_tokens":200000}}`

// withBudget adds the live budget to a diagnose answer.
func withBudget(answer string) string {
	return strings.TrimSuffix(answer, "}") + "," + liveBudgetAnswer + "}"
}

func replayAnswer(task string, more bool, next int64, steps ...string) string {
	return fmt.Sprintf(`{"task":%q,"entries":[%s],"next":%d,"more":%v}`, task, strings.Join(steps, ","), next, more)
}

func step(seq int, actor, action, outcome, attempt, op, trace string) string {
	return fmt.Sprintf(`{"type":"replay.step","seq":%d,"ts":"2026-12-01T18:00:%02dZ","actor":%q,"action":%q,"outcome":%q,"event":"x","attempt":%q,"operation":%q,"trace":%q}`,
		seq, seq%60, actor, action, outcome, attempt, op, trace)
}

const trace1 = "4bf92f3577b34da6a3ce929d0e0e4736"

// openDiagView opens diagnostics and answers the diagnose and the replay.
func openDiagView(h *harness, diag, replay string) {
	h.app.td.limits = map[string]string{"harness.max_turns": "30", "harness.max_tool_calls": "100", "harness.max_active_seconds": "1800", "harness.max_total_tokens": "200000"}
	h.keys(key(tcell.KeyCtrlD))
	n := h.port.n
	h.ackN(n, diag)
	h.ackN(n-1, replay)
}

var correlated = replayAnswer("tsk_1", false, 5,
	step(1, "user", "create task", "pending", "", "", ""),
	step(2, "runtime", "start attempt 1", "", "att_1", "", trace1),
	step(3, "model", "request exec", "requested", "att_1", "op_3", trace1),
	step(4, "policy", "decide exec", "allowed", "att_1", "op_3", trace1),
	step(5, "tool", "result exec", "failed", "att_1", "op_3", trace1))

var diagViews = []struct {
	name   string
	script func(h *harness)
}{
	{"diag-live-budget", func(h *harness) {
		running(h)
		openDiagView(h, withBudget(diagAnswer("tsk_1", "running", 4, 1, 1200, 300, unpriced)), correlated)
	}},
	{"diag-unknown-tokens", func(h *harness) {
		running(h)
		openDiagView(h, diagAnswer("tsk_1", "failed", 2, 2, 0, 0, unpriced), correlated)
		h.keys(key(tcell.KeyPgDn))
	}},
}

func TestDiagAdditionsSnapshots(t *testing.T) {
	for _, v := range diagViews {
		for _, sz := range append([][2]int{{60, 16}}, viewSizes...) {
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

func diagText(h *harness) string {
	var b strings.Builder
	for _, l := range h.app.diagLines() {
		for _, s := range l {
			b.WriteString(s.Text)
		}
		b.WriteString("\n")
	}
	return b.String()
}

func TestDiagMetersLabelEachTokenFigureAndKeepUnknowns(t *testing.T) {
	h := newHarness(t, 120, 40, Options{FPS: 0})
	running(h)
	openDiagView(h, withBudget(diagAnswer("tsk_1", "running", 4, 0, 1200, 300, unpriced)), correlated)
	got := diagText(h)
	for _, want := range []string{"turns        4 of 30", "tool calls   3 of 100", "active time  1m35s (live, while the task runs) of 30m00s · waits for you are not counted",
		"tokens       12500 charged of 200000", "  reported   1500 (by the provider)", "  estimated  1 request(s) charged at their full reservation", "  reserved   2400 in flight"} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in\n%s", want, got)
		}
	}
	// A finished task no provider reported usage for, with no budget
	// record: unknown, never 0.
	h = newHarness(t, 120, 40, Options{FPS: 0})
	running(h)
	openDiagView(h, diagAnswer("tsk_1", "failed", 2, 2, 0, 0, unpriced), correlated)
	got = diagText(h)
	for _, want := range []string{"  reported   unknown (by the provider)", "  estimated  unknown", "tokens       unknown charged", "active time  unknown (recorded only", "  reserved   none in flight (the task is not running)"} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in\n%s", want, got)
		}
	}
	if strings.Contains(got, "reported   0") || strings.Contains(got, "tokens       0") {
		t.Errorf("an unknown token count shown as 0:\n%s", got)
	}
}

func TestDiagCorrelatedEventsKeepTheNewestAndCopyTheTrace(t *testing.T) {
	h := newHarness(t, 120, 40, Options{FPS: 0})
	running(h)
	h.keys(key(tcell.KeyCtrlD))
	n := h.port.n
	h.ackN(n, diagAnswer("tsk_1", "running", 4, 0, 1200, 300, unpriced))
	if got := h.port.last("replay"); got["task"] != "tsk_1" {
		t.Fatalf("diagnostics ask lib/observe's replay for the correlated events: %v", got)
	}
	// Three full pages: the view follows them and keeps only the newest.
	replayReq := n - 1
	for page := 0; page < 3; page++ {
		var steps []string
		for i := 1; i <= 30; i++ {
			seq := page*30 + i
			steps = append(steps, step(seq, "tool", fmt.Sprintf("result step%d", seq), "ok", "att_1", fmt.Sprintf("op_%d", seq), trace1))
		}
		h.ackN(replayReq, replayAnswer("tsk_1", page < 2, int64(page*30+30), steps...))
		replayReq = h.port.n
	}
	if len(h.app.dg.rows) != diagEventRows || h.app.dg.dropped != 90-diagEventRows {
		t.Fatalf("kept %d, dropped %d", len(h.app.dg.rows), h.app.dg.dropped)
	}
	got := diagText(h)
	if !strings.Contains(got, "result step90 → ok · att_1 op_90") || strings.Contains(got, "result step50 ") || !strings.Contains(got, "… 50 older step(s) not shown") {
		t.Fatalf("correlated events:\n%s", got)
	}
	h.keys(runeKey('c'))
	if clip := string(h.scr.GetClipboardData()); clip != trace1 {
		t.Fatalf("c copies the trace ID: %q", clip)
	}
}

func TestTheTraceCopyIsAPaletteAction(t *testing.T) {
	h := newHarness(t, 120, 40, Options{FPS: 0})
	running(h)
	h.keys(key(tcell.KeyCtrlP))
	h.keys(typed("trace id")...)
	h.mustShow("no trace ID known yet")
	h.keys(key(tcell.KeyEscape))
	openDiagView(h, diagAnswer("tsk_1", "running", 4, 0, 1200, 300, unpriced), correlated)
	h.keys(key(tcell.KeyEscape), key(tcell.KeyCtrlP))
	h.keys(typed("trace id")...)
	h.keys(key(tcell.KeyEnter))
	if clip := string(h.scr.GetClipboardData()); clip != trace1 {
		t.Fatalf("the palette's copy action: %q", clip)
	}
}
