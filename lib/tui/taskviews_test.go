package tui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"
)

// ackN answers the app's command number n with data.
func (h *harness) ackN(n int, data string) {
	h.records(fmt.Sprintf(`{"v":1,"type":"ack","re":"%d","data":%s}`, n, data))
}

const tasksAnswer = `{"tasks":[
 {"id":"tsk_1","session":"ses_1","request":"fix the test","state":"running","created_at":"2026-12-01T18:00:00Z","updated_at":"2026-12-01T18:01:05Z"},
 {"id":"tsk_0","session":"ses_1","request":"explain the crate","state":"completed","created_at":"2026-12-01T17:00:00Z","updated_at":"2026-12-01T17:00:42Z"},
 {"id":"tsk_9","session":"ses_other","request":"another session's task","state":"failed","created_at":"2026-12-01T16:00:00Z","updated_at":"2026-12-01T16:00:01Z"}]}`

func diagAnswer(task, state string, requests, unknown int, in, out int64, cost string) string {
	return fmt.Sprintf(`{"diagnosis":{"v":1,"type":"observe.diag","task":{"id":"%s","session":"ses_1","request":"r","state":"%s"},"interrupted":false,
 "traces":["4bf92f3577b34da6a3ce929d0e0e4736"],"attempts":[{"id":"att_1","task":"%s","number":1,"state":"%s","trace":"4bf92f3577b34da6a3ce929d0e0e4736","operations":[]}],
 "operations":{"total":3,"by_state":{"succeeded":2,"failed":1},"unknown":0},"failures":["operation op_3 (exec) failed: exit status 101"],
 "usage":{"requests":%d,"input_tokens":%d,"output_tokens":%d,"unknown_usage_requests":%d,"complete":%v},"budget_events":[],"compactions":[{"id":"cmp_1","session":"ses_1","before_tokens":9000,"after_tokens":null,"artifact":"art_7"}],"laya_observations":[{"id":"lo_1","kind":"risk","label":"wide rewrite"}],
 "telemetry":{"archive":".fluzo/telemetry","spans":12,"error_spans":0,"logs":3,"incomplete_records":0,"estimated_cost":%s,
  "health":{"v":1,"type":"telemetry.health","state":"degraded","gaps":true,"sinks":[{"name":"otlp.traces","signal":"traces","state":"degraded","dropped":{"queue_full":4}}]}},
 "consent":{"state":"granted","granted_at":"2026-12-01T09:30:00Z","fingerprint":"sha256:41bf057ceed8b17dd479c55f615ab35f43afcfa0bcc5aa7c614def937b6bf719","how":"yes","via":"fluzo-admit consent",
  "destinations":[{"key":"models.coder.base_url","purpose":"model coder","url":"http://127.0.0.1:8080/v1","class":"loopback","auth":"none"}]}}}`,
		task, state, task, state, requests, in, out, unknown, unknown == 0, cost)
}

const unpriced = `{"calls":2,"priced_calls":0,"amount":null,"provenance":["no price for sim"],"complete":false}`

// openTasks opens the tasks view and answers its queries.
func openTasksView(h *harness) {
	h.app.td.limits = map[string]string{"harness.max_turns": "30", "harness.max_tool_calls": "100", "harness.max_active_seconds": "1200"}
	h.keys(key(tcell.KeyCtrlT))
	n := h.port.n
	h.ackN(n, tasksAnswer)
	h.ackN(n+1, diagAnswer("tsk_1", "running", 4, 0, 1200, 300, unpriced))
	h.ackN(n+2, diagAnswer("tsk_0", "completed", 2, 2, 0, 0, unpriced))
}

func TestTasksViewListsTheSessionsTasks(t *testing.T) {
	h := newHarness(t, 120, 40, Options{FPS: 0})
	running(h)
	openTasksView(h)
	if got := h.port.cmds(); strings.Count(strings.Join(got, " "), "diagnose") != 2 {
		t.Fatalf("one diagnose per listed task: %v", got)
	}
	h.mustShow("running      ≥1m05s   4      1500     fix the test")
	h.mustShow("completed    42s      2      unknown  explain the crate")
	if h.contains("another session's task") {
		t.Fatal("only the session's tasks are listed")
	}
	h.keys(typed("expl")...)
	if h.contains("fix the test ") && h.contains("› ") {
		t.Log("search keeps matches only")
	}
	if strings.Contains(strings.Join(h.screenText(), "\n"), "running      ≥1m05s") {
		t.Fatal("the search must filter the list")
	}
}

func TestTaskDetailShowsBudgetsAgainstLimits(t *testing.T) {
	h := newHarness(t, 120, 40, Options{FPS: 0})
	running(h)
	openTasksView(h)
	h.keys(key(tcell.KeyEnter))
	h.mustShow("Task tsk_1")
	h.mustShow("request      fix the test")
	h.mustShow("attempt 1    running · trace 4bf92f3577b34da6a3ce929d0e0e4736")
	h.mustShow("operations   3 (1 failed, 2 succeeded)")
	h.mustShow("turns        4 of 30")
	h.mustShow("tool calls   3 of 100")
	h.mustShow("active time  unknown (recorded only while the task runs, or when a")
	h.mustShow("budget runs out or is extended) of 1200s")
	h.mustShow("c cancel (graceful) · f force stop (asks)")
}

// While the task runs its detail measures every budget live against its
// limit: active time (waits excluded) and tokens too, not just turns.
func TestTaskDetailMetersTheLiveBudget(t *testing.T) {
	h := newHarness(t, 160, 50, Options{FPS: 0})
	running(h)
	h.app.td.limits = map[string]string{"harness.max_turns": "30"}
	h.keys(key(tcell.KeyCtrlT))
	n := h.port.n
	h.ackN(n, tasksAnswer)
	h.ackN(n+1, withBudget(diagAnswer("tsk_1", "running", 4, 0, 1200, 300, unpriced)))
	h.ackN(n+2, diagAnswer("tsk_0", "completed", 2, 2, 0, 0, unpriced))
	h.keys(key(tcell.KeyEnter))
	for _, want := range []string{"turns        4 of 30", "tool calls   3 of 100", "active time  1m35s (live, while the task runs) of 30m00s", "tokens       12500 charged of 200000", "reserved   2400 in flight"} {
		h.mustShow(want)
	}
}

func TestTasksViewCancelIsGracefulAndForceStopAsks(t *testing.T) {
	h := newHarness(t, 120, 40, Options{FPS: 0})
	running(h)
	openTasksView(h)
	h.keys(key(tcell.KeyEnter), runeKey('f'))
	if h.app.dialog != dialogForceStop || h.port.last("force_stop") != nil {
		t.Fatalf("f must only open the confirmation: dialog %v", h.app.dialog)
	}
	h.mustShow("[>Keep the task running<]")
	h.clock.Advance(armingWindow)
	h.keys(key(tcell.KeyEnter))
	if h.port.last("force_stop") != nil {
		t.Fatal("enter on the safe default must not force stop")
	}
	h.keys(key(tcell.KeyCtrlT))
	h.ackN(h.port.n, tasksAnswer)
	h.keys(key(tcell.KeyEnter), runeKey('c'))
	if c := h.port.last("cancel"); c == nil || c["task"] != "tsk_1" || h.port.last("force_stop") != nil {
		t.Fatalf("c must send a graceful cancel of tsk_1: %v", c)
	}
	h.records(`{"v":1,"type":"result","status":"cancelled","reason":"cancelled","task":"tsk_1","verification":{"completed":false,"verification":"not_run"}}`)
	if h.port.last("tasks") == nil || h.port.cmds()[len(h.port.cmds())-1] != "tasks" {
		t.Fatal("a result while the tasks view is open asks for the tasks again")
	}
	h.ackN(h.port.n, strings.Replace(tasksAnswer, `"state":"running"`, `"state":"cancelled"`, 1))
	h.mustShow("Task tsk_1  cancelled")
	if h.contains("f force stop") {
		t.Fatal("a cancelled task offers no stop")
	}

}

func TestTasksViewForceStopNeedsADeliberateMove(t *testing.T) {
	h := newHarness(t, 120, 40, Options{FPS: 0})
	running(h)
	openTasksView(h)
	h.keys(key(tcell.KeyEnter), runeKey('f'))
	h.keys(key(tcell.KeyRight), key(tcell.KeyEnter)) // inside the arming window: ignored
	if h.port.last("force_stop") != nil {
		t.Fatal("keys inside the arming window must not confirm")
	}
	h.clock.Advance(armingWindow)
	h.keys(key(tcell.KeyEnter))
	if f := h.port.last("force_stop"); f == nil || f["task"] != "tsk_1" {
		t.Fatalf("a deliberate move plus enter force stops the listed task: %v", f)
	}
}

func TestDiagnosticsViewFromTheDiagnoseQuery(t *testing.T) {
	h := newHarness(t, 120, 40, Options{FPS: 0})
	running(h)
	h.records(`{"v":1,"type":"result","status":"provider_error","task":"tsk_1","verification":{"completed":false,"verification":"not_run"},"error":{"code":"provider_error","message":"the model endpoint answered 401","hint":"check models.coder.api_key_env"}}`)
	h.keys(key(tcell.KeyCtrlD))
	if d := h.port.last("diagnose"); d == nil || d["task"] != "tsk_1" {
		t.Fatalf("ctrl+d must ask the port's diagnose query for the task: %v", d)
	}
	h.mustShow("diagnosis: unknown")
	h.ack(diagAnswer("tsk_1", "failed", 4, 1, 1200, 300, unpriced))
	h.mustShow("code         provider_error")
	h.mustShow("hint         check models.coder.api_key_env")
	h.mustShow("× operation op_3 (exec) failed: exit status 101")
	h.mustShow("  reported   ≥1500 (by the provider)")
	h.mustShow("trace        4bf92f3577b34da6a3ce929d0e0e4736")
	h.keys(key(tcell.KeyPgDn))
	h.mustShow("cmp_1        9000 → unknown tokens · artifact art_7")
	h.mustShow("observation risk: wide rewrite (not an action)")
	h.mustShow("health       degraded · records were dropped")
	h.mustShow("otlp.traces degraded · 4 dropped")
	h.mustShow("cost         unknown (no price for sim)")
	if h.contains("cost         0") {
		t.Fatal("an unpriced cost must read unknown, never 0")
	}
}

func TestDiagnosticsNeedATask(t *testing.T) {
	h := newHarness(t, 120, 40, Options{FPS: 0})
	h.connect()
	h.keys(key(tcell.KeyCtrlD))
	if h.app.dialog != dialogNone || h.port.last("diagnose") != nil || !strings.Contains(h.app.notice, "no task yet") {
		t.Fatalf("ctrl+d without a task says why: dialog %v notice %q", h.app.dialog, h.app.notice)
	}
}

// Every task state is listed with its label: the store's pending and
// ready read "queued" and count as active (their elapsed is a lower
// bound); a task blocked by restart recovery reads "interrupted".
func TestTasksViewLabelsEveryState(t *testing.T) {
	h := newHarness(t, 120, 40, Options{FPS: 0})
	running(h)
	openEveryStateTasks(h)
	for _, want := range []string{"running", "queued", "waiting", "blocked", "interrupted", "stopping", "completed", "failed", "cancelled"} {
		h.mustShow(want + " ")
	}
	if h.contains("pending ") || h.contains("ready ") {
		t.Fatal("the store's pending/ready must read queued")
	}
	h.keys(typed("queued")...)
	if got := len(h.app.taskMatches()); got != 2 {
		t.Fatalf("searching \"queued\" found %d task(s), want the pending and the ready one", got)
	}
	if !(taskRow{State: "pending"}).active() || (taskRow{State: "blocked", Reason: "interrupted"}).active() {
		t.Fatal("a queued task is active; an interrupted one is not")
	}
}

// At the minimum size the detail holds more than its frame: the hidden
// rows are counted on its edge and PgDn/PgUp scroll to them.
func TestTaskDetailScrollsAtTheMinimumSize(t *testing.T) {
	h := newHarness(t, 60, 16, Options{FPS: 0})
	queuedTwo(h) // two queued messages make the body taller than the frame
	openTasksView(h)
	h.keys(key(tcell.KeyEnter))
	h.mustShow("more row(s) · pgdn")
	if h.contains("active time") {
		t.Fatal("the last budget row fits a 60x16 detail: the test needs a taller body")
	}
	h.keys(key(tcell.KeyPgDn))
	h.mustShow("active time")
	h.mustShow("row(s) above · pgup")
	h.keys(key(tcell.KeyPgUp))
	h.mustShow("request")
	if h.contains("above · pgup") {
		t.Fatal("PgUp did not return to the top")
	}
	h.keys(key(tcell.KeyEscape), key(tcell.KeyEnter))
	h.mustShow("request") // reopening starts at the top
}

// A refused tasks or diagnose query shows in its view with the code, the
// message and the hint, not as "asking the runtime…" forever behind the
// overlay; the correlated events say so too.
func TestViewRefusalsShowInTasksAndDiagnostics(t *testing.T) {
	h := newHarness(t, 160, 50, Options{FPS: 0})
	running(h)
	h.keys(key(tcell.KeyCtrlT))
	h.records(fmt.Sprintf(`{"v":1,"type":"error","re":"%d","error":{"code":"storage_error","message":"the store is locked","hint":"retry"}}`, h.port.n))
	h.mustShow("refused: storage_error: the store is locked (retry)")
	if h.contains("asking the runtime for the tasks") {
		t.Fatal("a refused tasks query still says it is asking")
	}
	h.keys(key(tcell.KeyEscape), key(tcell.KeyCtrlT))
	if h.contains("refused: storage_error: the store is locked") {
		t.Fatal("reopening the view keeps the old refusal")
	}
	h.keys(key(tcell.KeyEscape), key(tcell.KeyCtrlD))
	n := h.port.n // the diagnose; the replay page was asked just before it
	h.records(fmt.Sprintf(`{"v":1,"type":"error","re":"%d","error":{"code":"not_found","message":"no task tsk_1"}}`, n))
	h.records(fmt.Sprintf(`{"v":1,"type":"error","re":"%d","error":{"code":"storage_error","message":"replay failed"}}`, n-1))
	h.mustShow("diagnosis: unknown, refused: not_found: no task tsk_1")
	if h.contains("asking the runtime…") {
		t.Fatal("a refused diagnose still says it is asking")
	}
	h.keys(key(tcell.KeyEscape), key(tcell.KeyCtrlD))
	n = h.port.n
	h.ackN(n, diagAnswer("tsk_1", "running", 4, 0, 1200, 300, unpriced))
	h.records(fmt.Sprintf(`{"v":1,"type":"error","re":"%d","error":{"code":"storage_error","message":"replay failed"}}`, n-1))
	if got := diagText(h); !strings.Contains(got, "unknown, refused: storage_error: replay failed") || strings.Contains(got, "asking the runtime for the task's timeline") {
		t.Fatalf("a refused replay page in the correlated events:\n%s", got)
	}
}
