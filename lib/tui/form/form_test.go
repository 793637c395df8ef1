package form

import (
	"strings"
	"testing"
)

func f64(v float64) *float64 { return &v }

func intEntry(key string, value string, lo, hi float64) Entry {
	return Entry{Key: key, Type: TypeInt, Value: value, Default: "30", Min: f64(lo), Max: f64(hi),
		Valid: "an integer from 1 to 10000", Apply: "safe_boundary", Source: "file"}
}

func sample() []Entry {
	return []Entry{
		{Key: "models.coder.max_in_flight", Type: TypeInt, Value: "1", Default: "1", Min: f64(1), Max: f64(1024), Valid: "an integer from 1 to 1024"},
		intEntry("harness.max_turns", "30", 1, 10000),
		{Key: "context.compaction_threshold", Type: TypeFloat, Value: "0.8", Default: "0.8", Min: f64(0.1), Max: f64(0.95), Valid: "a number from 0.1 to 0.95"},
		{Key: "telemetry.export_enabled", Type: TypeBool, Value: "false", Default: "false", Apply: "restart", Valid: "true or false"},
		{Key: "tui.theme", Type: TypeEnum, Value: "default", Default: "default", Options: []string{"default", "high_contrast"}, DevMenu: true, Valid: `one of "default", "high_contrast"`},
		{Key: "tui.animation_fps", Type: TypeInt, Value: "60", Default: "60", Min: f64(0), Max: f64(60), DevMenu: true, Valid: "an integer from 0 to 60"},
		{Key: "models.coder.api_key_env", Type: TypeString, Value: "OPENAI_API_KEY", Privacy: "secret_reference"},
		{Key: "policy.grants", Type: TypeStrings, Value: "[]", Valid: "an array of strings"},
	}
}

func find(t *testing.T, f *Form, key string) {
	t.Helper()
	for g := range f.Groups() {
		for f.Group() != g {
			f.NextGroup(1)
		}
		for i, e := range f.Visible() {
			if e.Key == key {
				f.Move(i - f.Selected())
				return
			}
		}
	}
	t.Fatalf("%s not listed on any screen", key)
}

// Range boundaries: min and max are accepted; min-1 and max+1 are
// refused with a key-specific error and the prior value stays — never
// clamped to the bound.
func TestValidateRefusesOneBeyondEitherBoundAndNeverClamps(t *testing.T) {
	e := intEntry("harness.max_turns", "30", 1, 10000)
	for text, ok := range map[string]bool{"1": true, "10000": true, "0": false, "10001": false, "-5": false, "ten": false, "3.5": false, "": false} {
		p := Validate(e, text)
		if (p == "") != ok {
			t.Errorf("Validate(%q) = %q, want ok=%v", text, p, ok)
		}
		if !ok && !strings.HasPrefix(p, "harness.max_turns: ") {
			t.Errorf("problem %q does not name the key", p)
		}
	}
	if p := Validate(e, "10001"); !strings.Contains(p, "above the maximum 10000") {
		t.Errorf("max+1: %q", p)
	}
	if p := Validate(e, "0"); !strings.Contains(p, "below the minimum 1") {
		t.Errorf("min-1: %q", p)
	}
	fl := sample()[2]
	for text, ok := range map[string]bool{"0.1": true, "0.95": true, "0.09": false, "0.96": false, "NaN": false, "x": false} {
		if p := Validate(fl, text); (p == "") != ok {
			t.Errorf("float Validate(%q) = %q", text, p)
		}
	}
}

func TestStepperStopsAtTheBoundWithAnError(t *testing.T) {
	f := New(sample(), SettingsGroups())
	find(t, f, "tui.animation_fps")
	if f.Step(1) {
		t.Fatal("stepping above 60 was accepted")
	}
	e, _ := f.Current()
	if f.Shown(e) != "60" || !strings.Contains(f.Error(e.Key), "above the maximum 60") {
		t.Fatalf("shown %q error %q: clamped or silent", f.Shown(e), f.Error(e.Key))
	}
	if !f.Step(-1) || f.Shown(e) != "59" || f.Error(e.Key) != "" {
		t.Fatalf("a valid step: shown %q error %q", f.Shown(e), f.Error(e.Key))
	}
	find(t, f, "models.coder.max_in_flight")
	if f.Step(-1) {
		t.Fatal("stepping below 1 was accepted")
	}
	find(t, f, "context.compaction_threshold")
	f.Step(1)
	e, _ = f.Current()
	if f.Shown(e) != "0.85" {
		t.Errorf("ratio step: %q", f.Shown(e))
	}
	f.Step(1)
	if !f.Step(1) || f.Shown(e) != "0.95" {
		t.Fatalf("ratio to its max: %q", f.Shown(e))
	}
	if f.Step(1) || f.Shown(e) != "0.95" {
		t.Errorf("ratio past 0.95: %q", f.Shown(e))
	}
}

func TestTogglesSelectorsAndChanges(t *testing.T) {
	f := New(sample(), SettingsGroups())
	find(t, f, "telemetry.export_enabled")
	f.Step(1)
	find(t, f, "tui.theme")
	f.Step(1)
	got := f.Changes()
	if len(got) != 2 || got[0] != (Change{"telemetry.export_enabled", "true"}) || got[1] != (Change{"tui.theme", "high_contrast"}) {
		t.Fatalf("changes %v", got)
	}
	f.Step(1) // back to the value: no longer a change
	if len(f.Changes()) != 1 {
		t.Errorf("a selector cycled back still counts: %v", f.Changes())
	}
	f.Discard()
	if f.Dirty() {
		t.Error("Cancel kept staged edits")
	}
}

// Invalid text keeps the edit open with the error and the prior value;
// valid text is staged.
func TestTextEditValidates(t *testing.T) {
	f := New(sample(), SettingsGroups())
	find(t, f, "harness.max_turns")
	f.BeginEdit()
	f.Backspace()
	f.Backspace()
	f.Type("10001")
	if f.Commit() {
		t.Fatal("10001 committed")
	}
	e, _ := f.Current()
	if editing, _ := f.Editing(); !editing || f.Shown(e) != "30" || f.Error(e.Key) == "" {
		t.Fatalf("after an invalid commit: editing=%v shown=%q err=%q", editing, f.Shown(e), f.Error(e.Key))
	}
	for range 5 {
		f.Backspace()
	}
	f.Type("40\x1b")
	if !f.Commit() || f.Shown(e) != "40" || f.Error(e.Key) != "" {
		t.Fatalf("valid commit: shown %q err %q", f.Shown(e), f.Error(e.Key))
	}
	find(t, f, "policy.grants")
	f.BeginEdit()
	f.Backspace()
	f.Backspace()
	f.Type("exec:ls")
	if f.Commit() {
		t.Error("a list without brackets committed")
	}
}

func TestLockedEntryRefusesEveryControl(t *testing.T) {
	es := sample()
	es[1].Locked, es[1].Source = true, "cli"
	f := New(es, SettingsGroups())
	find(t, f, "harness.max_turns")
	if f.Step(1) || f.BeginEdit() || f.Reset() || f.Dirty() {
		t.Fatal("a locked entry changed")
	}
	if !strings.Contains(f.Error("harness.max_turns"), "locked") {
		t.Errorf("error %q", f.Error("harness.max_turns"))
	}
}

func TestResetStagesTheDefaultAndSetEntriesDropsApplied(t *testing.T) {
	f := New(sample(), SettingsGroups())
	find(t, f, "tui.animation_fps")
	f.Step(-1)
	f.Step(-1)
	f.Reset()
	if f.Dirty() {
		t.Fatalf("reset to the value still staged: %v", f.Changes())
	}
	f.Step(-1)
	es := sample()
	es[5].Value, es[5].Edited = "59", true
	f.SetEntries(es)
	if f.Dirty() || !f.Unsaved() {
		t.Errorf("applied edit: dirty=%v unsaved=%v", f.Dirty(), f.Unsaved())
	}
}

func TestGroupsCoverEveryEntryAndDevMenuOnlyItsCatalog(t *testing.T) {
	f := New(sample(), SettingsGroups())
	names := f.Groups()
	want := []string{"Models and pools", "Limits", "Storage", "Telemetry", "Theme", "Notifications", "Developer menu", "All / advanced"}
	if strings.Join(names, "|") != strings.Join(want, "|") {
		t.Fatalf("groups %v", names)
	}
	f.NextGroup(-1)
	if len(f.Visible()) != len(sample()) {
		t.Error("all / advanced does not list every entry")
	}
	d := New(sample(), DevMenuGroups())
	for _, e := range d.Visible() {
		if !e.DevMenu {
			t.Errorf("dev menu lists %s", e.Key)
		}
	}
	if len(d.Visible()) != 2 {
		t.Errorf("dev menu lists %d entries", len(d.Visible()))
	}
}

func TestEntryFacts(t *testing.T) {
	es := sample()
	if es[3].Control() != ControlToggle || es[1].Control() != ControlStepper || es[4].Control() != ControlSelector || es[7].Control() != ControlText {
		t.Error("controls")
	}
	if !es[6].Reference() || !es[3].RestartOnly() || es[3].When() != "applies after a restart" {
		t.Error("reference / restart")
	}
}

func TestPickerPreviewsAndRestores(t *testing.T) {
	p := NewPicker([]string{"default", "high_contrast"}, "high_contrast")
	if p.Preview() != "high_contrast" || p.Changed() {
		t.Fatal("opens on the current option")
	}
	if p.Move(1) != "default" || !p.Changed() || p.Prior() != "high_contrast" {
		t.Fatal("move previews, prior stays")
	}
	if p.Move(-1) != "high_contrast" || p.Changed() {
		t.Fatal("wraps back")
	}
}

func TestFilterListsOnlyMatchingKeys(t *testing.T) {
	f := New(sample(), SettingsGroups())
	f.NextGroup(-1) // all
	f.SetFilter("FPS")
	if v := f.Visible(); len(v) != 1 || v[0].Key != "tui.animation_fps" {
		t.Fatalf("filter FPS lists %v", v)
	}
	f.SetFilter("bad\x1b")
	if f.Filter() != "FPS" {
		t.Error("a control character entered the filter")
	}
	f.SetFilter("")
	if len(f.Visible()) != len(sample()) {
		t.Error("clearing the filter")
	}
}
