package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/store"
)

// portRecords runs commands through a port on a real workspace and store
// and returns the output records keyed by "re" (acks and errors) plus the
// events, in order.
func portRecords(t *testing.T, commands ...string) (map[string]map[string]any, []core.Event) {
	t.Helper()
	return portRecordsSeeded(t, func(*store.Store) []string { return commands })
}

// portRecordsSeeded is portRecords on a store that seed writes first;
// seed returns the commands, which may name what it wrote.
func portRecordsSeeded(t *testing.T, seed func(*store.Store) []string) (map[string]map[string]any, []core.Event) {
	t.Helper()
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	dir := newRepo(t, map[string]string{"README": "x\n", ".gitignore": ".fluzodrive/\n"})
	writeFiles(t, dir, map[string]string{".fluzo": "schema_version = 1\n\n[models.coder]\nbase_url = \"http://127.0.0.1:1\"\nmodel = \"sim\"\n"})
	var out bytes.Buffer
	port := NewPort(&out)
	ctx := context.Background()
	owner, err := OpenOwner(ctx, OwnerOptions{Dir: dir, Emit: port.Emit, Consent: true})
	if err != nil {
		t.Fatal(err)
	}
	defer owner.Close()
	port.Owner = owner
	commands := seed(owner.Store)
	if err := port.Serve(ctx, strings.NewReader(strings.Join(commands, "\n"))); err != nil {
		t.Fatal(err)
	}
	answers := map[string]map[string]any{}
	var events []core.Event
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var rec map[string]any
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatalf("not JSON: %s", line)
		}
		if re, ok := rec["re"].(string); ok {
			answers[re] = rec
			continue
		}
		var ev core.Event
		json.Unmarshal([]byte(line), &ev)
		events = append(events, ev)
	}
	return answers, events
}

func errCode(rec map[string]any) string {
	e, _ := rec["error"].(map[string]any)
	code, _ := e["code"].(string)
	return code
}

func TestPortQueriesAnswerOrRejectTyped(t *testing.T) {
	ans, events := portRecords(t,
		`{"v":1,"id":"s","cmd":"subscribe"}`,
		`{"v":1,"id":"y","cmd":"set_yolo","on":true}`,
		`{"v":1,"id":"s2","cmd":"subscribe","after":0}`,
		`{"v":1,"id":"e1","cmd":"events","limit":-5}`,
		`{"v":1,"id":"e2","cmd":"events","after_seq":2}`,
		`{"v":1,"id":"e3","cmd":"events","after":-1}`,
		`{"v":1,"id":"e4","cmd":"events","limit":100000}`,
		`{"v":1,"id":"d1","cmd":"diff"}`,
		`{"v":1,"id":"d2","cmd":"diff","task":"tsk_NONE"}`,
		`{"v":1,"id":"r1","cmd":"resume","task":"tsk_NONE"}`,
		`{"v":1,"id":"g1","cmd":"revoke_grant","grant":"grt_NONE"}`,
		`{"v":1,"id":"f1","cmd":"force_stop","task":"tsk_NONE","yes":true}`,
		`{"v":1,"id":"x","cmd":"diff","task":"tsk_1","extra":true}`,
	)
	// A new store holds only the audit of the consent (--consent) that
	// admitted the owner: one workspace-wide event.
	snap := ans["s"]["data"].(map[string]any)
	if snap["cursor"].(float64) != 1 || len(snap["seqs"].(map[string]any)) != 1 {
		t.Fatalf("new store snapshot: %v", snap)
	}
	// set_yolo while idle is still audited: a session-less yolo event
	// (after the consent audit, streamed when the owner opened).
	if len(events) == 2 && events[0].Type == core.EvConsentGranted {
		events = events[1:]
	}
	if len(events) != 1 || events[0].Type != core.EvYolo || events[0].Session != "" || !strings.Contains(string(events[0].Data), `"on":true`) {
		t.Fatalf("yolo audit events: %+v", events)
	}
	page := ans["s2"]["data"].(map[string]any)
	if page["cursor"].(float64) != 2 || len(page["events"].([]any)) != 2 || page["more"] != false {
		t.Fatalf("subscribe after 0: %v", page)
	}
	if got := ans["e4"]["data"].(map[string]any); len(got["events"].([]any)) != 2 {
		t.Fatalf("an oversized limit is capped, not refused: %v", got)
	}
	for id, want := range map[string]string{
		"e1": "invalid_request", "e2": "invalid_request", "e3": "invalid_request",
		"d1": "invalid_request", "d2": "not_found", "r1": "not_found", "g1": "not_found",
		"f1": "not_found", "x": "invalid_request",
	} {
		if got := errCode(ans[id]); got != want {
			t.Errorf("%s: code %q, want %q (%v)", id, got, want, ans[id])
		}
	}
}
