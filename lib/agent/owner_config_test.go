package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/josecorral/fluzo/lib/config"
	"github.com/josecorral/fluzo/lib/core"
)

const settingsFluzo = `schema_version = 1

# The coder model: a local simulator.
[models.coder]
base_url = "http://127.0.0.1:1"   # never contacted here
model = "sim"

[models.laya]
provider = "laya_systemone"
endpoint = "http://127.0.0.1:2/laya"

[capacity_pools.local_server]
queue_timeout_seconds = 5 # bounds the failure mode of the live-limit test

[harness]
# Turns per task.
max_turns = 30
`

// settingsPort is a port on a real workspace and store whose .fluzo is
// settingsFluzo; overrides are --set KEY=VALUE.
func settingsPort(t *testing.T, overrides ...string) (*Port, *bytes.Buffer, string) {
	t.Helper()
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	dir := newRepo(t, map[string]string{"README": "x\n", ".gitignore": ".fluzodrive/\n"})
	writeFiles(t, dir, map[string]string{".fluzo": settingsFluzo})
	var out bytes.Buffer
	p := NewPort(&out)
	owner, err := OpenOwner(context.Background(), OwnerOptions{Dir: dir, Emit: p.Emit, Consent: true, Overrides: overrides})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { owner.Close() })
	p.Owner = owner
	return p, &out, filepath.Join(dir, ".fluzo")
}

func change(t *testing.T, p *Port, body string) (map[string]any, error) {
	t.Helper()
	ans, err := p.configChange(context.Background(), []byte(`{"v":1,"id":"c","cmd":"config_change",`+body+`}`))
	if err != nil {
		return nil, err
	}
	raw, _ := json.Marshal(ans)
	var m map[string]any
	json.Unmarshal(raw, &m)
	return m, nil
}

func entry(t *testing.T, p *Port, key string) settingEntry {
	t.Helper()
	for _, e := range p.settingsAnswer().Settings {
		if e.Key == key {
			return e
		}
	}
	t.Fatalf("no settings entry %s", key)
	return settingEntry{}
}

// A raised model and pool limit applied from the settings screen reaches
// the admission actor of the running task at once: the task's next
// request, queued behind the only slot, is admitted without waiting for
// the slot to free (PRD §43.3).
func TestConfigChangeRaisesTheRunningTasksAdmissionLimit(t *testing.T) {
	p, _, _ := settingsPort(t)
	p.running = true // as while a task runs: the task's configuration must not change under it
	admitTurn := p.Owner.admitter("coder")
	held, err := admitTurn(context.Background(), "turn")
	if err != nil {
		t.Fatal(err)
	}
	defer held.Complete()
	got := make(chan error, 1)
	go func() {
		s, err := admitTurn(context.Background(), "turn")
		if err == nil {
			s.Complete()
		}
		got <- err
	}()
	waitQueued(t, p, 1)
	ans, err := change(t, p, `"changes":[{"key":"models.coder.max_in_flight","value":"2"},{"key":"capacity_pools.local_server.max_in_flight","value":"2"}]`)
	if err != nil {
		t.Fatal(err)
	}
	if err := <-got; err != nil {
		t.Fatalf("the queued request was not admitted under the new limit: %v", err)
	}
	applied := ans["applied"].([]any)
	if w := applied[0].(map[string]any)["when"]; w != "now" {
		t.Errorf("max_in_flight takes effect %v, want now", w)
	}
	if p.Owner.Config.Int("models.coder.max_in_flight") != 1 {
		t.Error("the running task's configuration changed under it")
	}
	if e := entry(t, p, "models.coder.max_in_flight"); e.Value.Value != int64(2) || !e.Edited || e.Saved != int64(1) {
		t.Errorf("settings show %v edited=%v, want 2 edited", e.Value.Value, e.Edited)
	}
	p.mu.Lock()
	p.running = false
	p.adoptNext()
	p.mu.Unlock()
	if p.Owner.Config.Int("models.coder.max_in_flight") != 2 {
		t.Error("the next task does not get the applied configuration")
	}
}

func waitQueued(t *testing.T, p *Port, n int) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		for _, ps := range p.Owner.admission.Status() {
			if ps.ID == "local_server" && ps.Queued == n {
				return
			}
		}
	}
	t.Fatalf("no request queued")
}

// Out of range by one on either side, a wrong type and an unknown key are
// refused with the key named; nothing is applied, even the valid edit
// sent beside them.
func TestConfigChangeRefusesInvalidValuesAndKeepsThePriorValue(t *testing.T) {
	p, _, _ := settingsPort(t)
	for _, bad := range []string{"0", "10001", "ten", "3.5"} {
		_, err := change(t, p, `"changes":[{"key":"tui.animation_fps","value":"30"},{"key":"harness.max_turns","value":"`+bad+`"}]`)
		ds := config.Diagnostics(err)
		if core.CodeOf(err) != core.CodeInvalidConfiguration || len(ds) != 1 || ds[0].Key != "harness.max_turns" {
			t.Errorf("max_turns=%s: got %v %+v", bad, err, ds)
		}
	}
	for _, edge := range []string{"1", "10000"} {
		if _, err := change(t, p, `"changes":[{"key":"harness.max_turns","value":"`+edge+`"}]`); err != nil {
			t.Errorf("max_turns=%s refused: %v", edge, err)
		}
	}
	if _, err := change(t, p, `"changes":[{"key":"harness.no_such","value":"1"}]`); core.CodeOf(err) != core.CodeInvalidConfiguration {
		t.Errorf("unknown key: %v", err)
	}
	if v := p.Owner.Config.Int("tui.animation_fps"); v != 60 {
		t.Errorf("the valid edit beside an invalid one was applied: fps %d", v)
	}
}

// A key set with --set is shown locked and cannot be changed here.
func TestConfigChangeRefusesACommandLineLockedKey(t *testing.T) {
	p, _, _ := settingsPort(t, "harness.max_turns=7")
	if e := entry(t, p, "harness.max_turns"); !e.Locked || e.Source != config.SourceCLI {
		t.Fatalf("entry %+v is not locked", e)
	}
	_, err := change(t, p, `"changes":[{"key":"harness.max_turns","value":"9"}]`)
	if ds := config.Diagnostics(err); len(ds) != 1 || !strings.Contains(ds[0].Problem, "locked") {
		t.Fatalf("locked key changed: %v", err)
	}
	if p.Owner.Config.Int("harness.max_turns") != 7 {
		t.Error("the command-line value was replaced")
	}
}

// Save writes only the edited keys, keeping every comment and the layout,
// and the file stays valid; a restart-only key is marked pending.
func TestConfigChangeSavesSurgicallyAndMarksRestartPending(t *testing.T) {
	p, out, path := settingsPort(t)
	if _, err := change(t, p, `"changes":[{"key":"harness.max_turns","value":"40"},{"key":"telemetry.archive_enabled","value":"false"}]`); err != nil {
		t.Fatal(err)
	}
	if !entry(t, p, "telemetry.archive_enabled").PendingRestart || entry(t, p, "harness.max_turns").PendingRestart {
		t.Error("pending restart is not exactly the restart-only key")
	}
	ans, err := change(t, p, `"save":true`)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	want := strings.Replace(settingsFluzo, "max_turns = 30", "max_turns = 40", 1) + "\n[telemetry]\narchive_enabled = false\n"
	if string(data) != want {
		t.Errorf("saved file:\n%s\nwant:\n%s", data, want)
	}
	if _, err := config.Load(path); err != nil {
		t.Errorf("the saved file does not validate: %v", err)
	}
	if ans["saved"] != true || entry(t, p, "harness.max_turns").Edited {
		t.Errorf("answer %v: the saved key is still marked edited", ans)
	}
	if !strings.Contains(out.String(), `"type":"config.changed"`) {
		t.Error("no config.changed diagnostic was recorded")
	}
}

// An outside change since load is a conflict naming the kind and the keys
// both sides edited; merge applies only the edited keys onto the new file.
func TestConfigChangeSaveOverAnOutsideChangeAsksThenMerges(t *testing.T) {
	p, _, path := settingsPort(t)
	if _, err := change(t, p, `"changes":[{"key":"harness.max_turns","value":"40"}]`); err != nil {
		t.Fatal(err)
	}
	outside := strings.Replace(settingsFluzo, "max_turns = 30", "max_turns = 31\nmax_tool_calls = 77", 1)
	if err := os.WriteFile(path, []byte(outside), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := change(t, p, `"save":true`)
	ce := core.AsError(err)
	if core.CodeOf(err) != core.CodeConfirmationRequired || ce.Details["outside_change"] != config.ChangeModified {
		t.Fatalf("save over an outside change: %v", err)
	}
	if c, _ := ce.Details["conflicts"].([]string); len(c) != 1 || c[0] != "harness.max_turns" {
		t.Errorf("conflicts %v, want harness.max_turns", ce.Details["conflicts"])
	}
	if data, _ := os.ReadFile(path); string(data) != outside {
		t.Fatal("the conflicting save wrote the file")
	}
	if _, err := change(t, p, `"changes":[{"key":"harness.max_tool_calls","value":"50"}],"save":true`); core.CodeOf(err) != core.CodeConfirmationRequired ||
		entry(t, p, "harness.max_tool_calls").Value.Value != int64(100) {
		t.Fatalf("a change saved over a conflict was applied: %v", err)
	}
	if _, err := change(t, p, `"save":true,"merge":true`); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	if !strings.Contains(string(data), "max_turns = 40\nmax_tool_calls = 77") {
		t.Errorf("merge lost a side:\n%s", data)
	}
}

// A read-only .fluzo is refused with a clear error before anything is
// written, and a change that was to be saved is not applied either (a
// failed save leaves the configuration and the runtime as they were; the
// client keeps the edit). Applied on its own, it is saved once writable.
func TestConfigChangeSaveToAReadOnlyFileChangesNothing(t *testing.T) {
	p, _, path := settingsPort(t)
	if err := os.Chmod(path, 0o444); err != nil {
		t.Fatal(err)
	}
	_, err := change(t, p, `"changes":[{"key":"harness.max_turns","value":"40"}],"save":true`)
	if core.CodeOf(err) != core.CodeStorageError || !strings.Contains(err.Error(), "read-only") {
		t.Fatalf("read-only save: %v", err)
	}
	if data, _ := os.ReadFile(path); string(data) != settingsFluzo {
		t.Fatal("the read-only file changed")
	}
	if e := entry(t, p, "harness.max_turns"); e.Value.Value != int64(30) || e.Edited || p.Owner.Config.Int("harness.max_turns") != 30 {
		t.Fatalf("a failed save applied the change: %+v", e)
	}
	if _, err := change(t, p, `"changes":[{"key":"harness.max_turns","value":"40"}]`); err != nil {
		t.Fatal(err)
	}
	if _, err := change(t, p, `"save":true`); core.CodeOf(err) != core.CodeStorageError {
		t.Fatalf("saving applied edits to a read-only file: %v", err)
	}
	if e := entry(t, p, "harness.max_turns"); e.Value.Value != int64(40) || !e.Edited {
		t.Fatalf("the applied edit was lost: %+v", e)
	}
	os.Chmod(path, 0o644)
	if _, err := change(t, p, `"save":true`); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(path); !strings.Contains(string(data), "max_turns = 40") {
		t.Error("the kept edit was not saved")
	}
}

// The developer menu changes only its catalog; Laya shadow observation
// needs consent like every security setting, recorded only when the
// user answered the prompt; the diagnostic redacts non-public values.
func TestConfigChangeFromTheDeveloperMenu(t *testing.T) {
	p, out, _ := settingsPort(t)
	for _, key := range []string{"policy.shell", "harness.max_turns", "capacity_pools.local_server.max_in_flight", "policy.grants"} {
		if _, err := change(t, p, `"origin":"dev_menu","changes":[{"key":"`+key+`","value":"1"}]`); core.CodeOf(err) != core.CodeInvalidRequest {
			t.Errorf("the developer menu changed %s: %v", key, err)
		}
	}
	if _, err := change(t, p, `"origin":"dev_menu","changes":[{"key":"tui.theme","value":"high_contrast"}]`); err != nil {
		t.Fatal(err)
	}
	if _, err := change(t, p, `"origin":"dev_menu","changes":[{"key":"decision.enabled","value":"true"}]`); core.CodeOf(err) != core.CodeConfigurationRequired {
		t.Fatalf("decision.enabled without consent: %v", err)
	}
	if p.Owner.Config.Bool("decision.enabled") {
		t.Fatal("decision.enabled applied without consent")
	}
	if _, err := change(t, p, `"origin":"dev_menu","consent":true,"changes":[{"key":"decision.enabled","value":"true"}]`); err != nil {
		t.Fatal(err)
	}
	if !p.Owner.Config.Bool("decision.enabled") || p.Owner.consent.Fingerprint != p.Owner.Config.Fingerprint() {
		t.Error("consented change not applied with its consent")
	}
	var sawRedacted bool
	for _, l := range strings.Split(out.String(), "\n") {
		if strings.Contains(l, `"config.changed"`) && strings.Contains(l, `"decision.enabled","value":"[redacted]"`) {
			sawRedacted = true
		}
	}
	if !sawRedacted {
		t.Errorf("no redacted config.changed for decision.enabled:\n%s", out)
	}
}

// While a task runs, a budget applies to the next task unless the change
// names the current task; then the task's inbox carries it to the loop.
func TestConfigChangeBudgetsReachARunningTaskOnlyWhenAsked(t *testing.T) {
	p, _, _ := settingsPort(t)
	p.running, p.inbox = true, &Inbox{}
	ans, err := change(t, p, `"changes":[{"key":"harness.max_turns","value":"5"}]`)
	if err != nil {
		t.Fatal(err)
	}
	if w := ans["applied"].([]any)[0].(map[string]any)["when"]; w != "next_task" || p.inbox.takeBudgets() != nil {
		t.Fatalf("without current_task: when %v", w)
	}
	ans, err = change(t, p, `"current_task":true,"changes":[{"key":"harness.max_turns","value":"4"}]`)
	if err != nil {
		t.Fatal(err)
	}
	b := p.inbox.takeBudgets()
	if w := ans["applied"].([]any)[0].(map[string]any)["when"]; w != "safe_boundary" || b == nil || b.MaxTurns != 4 {
		t.Fatalf("with current_task: when %v budgets %+v", w, b)
	}
	if !entry(t, p, "harness.max_turns").TaskBudget || entry(t, p, "tui.theme").TaskBudget {
		t.Error("task_budget flags")
	}
}

// A save from the developer menu or the theme picker writes only its own
// keys (PRD §29.2.2: only the selected UI preferences), even when the
// settings screens applied other keys earlier; those stay applied and
// unsaved, and a later save from the settings writes them without taking
// the menu's own write for an outside change.
func TestConfigChangeMenuSavesOnlyItsOwnKeys(t *testing.T) {
	p, _, path := settingsPort(t)
	if _, err := change(t, p, `"changes":[{"key":"harness.max_turns","value":"40"}]`); err != nil {
		t.Fatal(err)
	}
	if _, err := change(t, p, `"origin":"dev_menu","save":true,"changes":[{"key":"tui.animation_fps","value":"30"}]`); err != nil {
		t.Fatal(err)
	}
	if _, err := change(t, p, `"origin":"theme_picker","save":true,"changes":[{"key":"tui.theme","value":"high_contrast"}]`); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	want := settingsFluzo + "\n[tui]\nanimation_fps = 30\ntheme = \"high_contrast\"\n"
	if string(data) != want {
		t.Fatalf("the menus saved more than their keys:\n%s\nwant:\n%s", data, want)
	}
	e := entry(t, p, "harness.max_turns")
	if e.Value.Value != int64(40) || !e.Edited || e.Saved != int64(30) || p.Owner.Config.Int("harness.max_turns") != 40 {
		t.Fatalf("the settings' applied edit after the menus' saves: %+v", e)
	}
	if entry(t, p, "tui.animation_fps").Edited || entry(t, p, "tui.theme").Edited {
		t.Error("a saved menu key is still marked unsaved")
	}
	if _, err := change(t, p, `"save":true`); err != nil {
		t.Fatalf("the settings' save after the menus' own writes: %v", err)
	}
	data, _ = os.ReadFile(path)
	if want = strings.Replace(want, "max_turns = 30", "max_turns = 40", 1); string(data) != want {
		t.Fatalf("saved:\n%s\nwant:\n%s", data, want)
	}
}
