package config

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/google/renameio/v2"
	"github.com/josecorral/fluzo/lib/core"
)

const commented = `# my project settings
schema_version = 1

[harness]
# keep it short
max_turns = 30 # reviewed by ops
max_active_seconds = 1200

[tui]
theme = "default"
notifications.max_visible = 2
`

func writeConfig(t *testing.T, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), ".fluzo")
	if err := os.WriteFile(path, []byte(text), 0o640); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestSaveChangesOnlyEditedKeysAndKeepsComments(t *testing.T) {
	path := writeConfig(t, commented)
	cfg, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	d := cfg.Edit()
	for k, v := range map[string]string{
		"harness.max_turns":                 "40",
		"tui.notifications.max_visible":     "4",
		"policy.shell":                      "deny",
		"tools.shell.inherit_env":           `["CARGO_HOME"]`,
		"harness.max_tool_calls":            "9",
		"tui.notifications.desktop_enabled": "true",
	} {
		if err := d.Set(k, v); err != nil {
			t.Fatal(err)
		}
	}
	res, err := d.Save()
	if err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	text := string(data)
	for _, want := range []string{"# my project settings\n", "# keep it short\nmax_turns = 40 # reviewed by ops\n",
		"max_active_seconds = 1200\nmax_tool_calls = 9\n", "notifications.max_visible = 4\nnotifications.desktop_enabled = true\n", "[policy]\nshell = \"deny\"\n"} {
		if !strings.Contains(text, want) {
			t.Errorf("saved file lacks %q:\n%s", want, text)
		}
	}
	if res.OutsideChange || res.Config.Int("harness.max_turns") != 40 || res.Config.Bool("tui.notifications.desktop_enabled") != true {
		t.Errorf("result %+v", res)
	}
	if cfg.Int("harness.max_turns") != 30 {
		t.Error("the base configuration changed")
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o640 {
		t.Errorf("mode %v not preserved", st.Mode())
	}
	if changed, err := res.Config.OutsideChange(); changed || err != nil {
		t.Errorf("own write reported as outside change: %v %v", changed, err)
	}
}

func TestOutsideEditBetweenLoadAndSaveSurvives(t *testing.T) {
	path := writeConfig(t, commented)
	cfg, _ := Load(path)
	outside := strings.Replace(commented, "theme = \"default\"", "theme = \"high_contrast\" # set by hand", 1)
	if err := os.WriteFile(path, []byte(outside), 0o640); err != nil {
		t.Fatal(err)
	}
	if changed, err := cfg.OutsideChange(); !changed || err != nil {
		t.Fatalf("outside change not detected: %v %v", changed, err)
	}
	d := cfg.Edit()
	d.Set("harness.max_turns", "5")
	res, err := d.Save()
	if err != nil {
		t.Fatal(err)
	}
	if !res.OutsideChange {
		t.Error("save did not report the outside change")
	}
	if res.Config.String("tui.theme") != "high_contrast" || res.Config.Int("harness.max_turns") != 5 {
		t.Errorf("theme %s turns %d", res.Config.String("tui.theme"), res.Config.Int("harness.max_turns"))
	}
	data, _ := os.ReadFile(path)
	if !strings.Contains(string(data), `theme = "high_contrast" # set by hand`) {
		t.Errorf("outside edit clobbered:\n%s", data)
	}
}

func TestFailedProbeIsNotAnOutsideChange(t *testing.T) {
	path := writeConfig(t, commented)
	cfg, _ := Load(path)
	os.Chmod(path, 0)
	defer os.Chmod(path, 0o640)
	if os.Geteuid() == 0 {
		os.Remove(path)
		os.Mkdir(path, 0o700) // a directory cannot be read as a file
	}
	changed, err := cfg.OutsideChange()
	if changed || err == nil {
		t.Errorf("failed probe reported changed=%v err=%v", changed, err)
	}
}

func TestFailedSavesLeaveEverythingUnchanged(t *testing.T) {
	path := writeConfig(t, commented)
	cfg, _ := Load(path)
	before, _ := os.ReadFile(path)

	d := cfg.Edit()
	if err := d.Set("tui.animation_fps", "500"); core.CodeOf(err) != core.CodeInvalidConfiguration {
		t.Errorf("out of range accepted: %v", err)
	}
	d.Set("capacity_pools.local_server.foreground_reserved_slots", "3")
	if _, err := d.Save(); core.CodeOf(err) != core.CodeInvalidConfiguration {
		t.Errorf("invalid combination saved: %v", err)
	}
	assertUnchanged(t, path, before)

	{
		dir := filepath.Dir(path)
		os.Chmod(dir, 0o500)
		defer os.Chmod(dir, 0o700)
		if os.Geteuid() == 0 { // root writes into read-only directories
			newPendingFile = func(string, ...renameio.Option) (*renameio.PendingFile, error) {
				return nil, &os.PathError{Op: "open", Path: dir, Err: syscall.EROFS}
			}
			defer func() { newPendingFile = renameio.NewPendingFile }()
		}
		d := cfg.Edit()
		d.Set("harness.max_turns", "3")
		if _, err := d.Save(); core.CodeOf(err) != core.CodeStorageError {
			t.Errorf("save into read-only dir: %v", err)
		}
		assertUnchanged(t, path, before)
		entries, _ := os.ReadDir(dir)
		if len(entries) != 1 {
			t.Errorf("temporary files left: %v", entries)
		}
	}
	if cfg.Int("harness.max_turns") != 30 {
		t.Error("runtime configuration changed by a failed save")
	}
}

func assertUnchanged(t *testing.T, path string, before []byte) {
	t.Helper()
	after, _ := os.ReadFile(path)
	if string(after) != string(before) {
		t.Errorf("file changed by a failed save:\n%s", after)
	}
}

func TestCreateNeverReplacesAndReplaceKeepsBackup(t *testing.T) {
	path := filepath.Join(t.TempDir(), ".fluzo")
	if err := Create(path, Render(Defaults())); err != nil {
		t.Fatal(err)
	}
	if err := Create(path, []byte("schema_version = 1\n")); core.CodeOf(err) != core.CodeConfirmationRequired {
		t.Errorf("second create: %v", err)
	}
	old, _ := os.ReadFile(path)
	backup, err := Replace(path, []byte("schema_version = 1\n"))
	if err != nil {
		t.Fatal(err)
	}
	kept, _ := os.ReadFile(backup)
	if string(kept) != string(old) {
		t.Error("backup is not an exact copy")
	}
	if now, _ := os.ReadFile(path); string(now) != "schema_version = 1\n" {
		t.Errorf("replaced content %q", now)
	}
}

func TestSetInTextInsertsIntoTheRightPlace(t *testing.T) {
	cases := []struct{ key, want string }{
		{"project.name", "[project]\nname = \"x\"\n"},
		{"schema_version", "schema_version = 9\n"},
		{"models.gpu.model", "[models.gpu]\nmodel = \"x\"\n"},
	}
	for _, c := range cases {
		val := `"x"`
		if c.key == "schema_version" {
			val = "9"
		}
		got, err := setInText("# head\n\n[harness]\nmax_turns = 1\n", c.key, val)
		if err != nil || !strings.Contains(got, c.want) || !strings.Contains(got, "[harness]\nmax_turns = 1") {
			t.Errorf("%s: %v\n%s", c.key, err, got)
		}
	}
	multi := "[tools.shell]\ninherit_env = [\n  \"A\", # first\n  \"B\",\n]\nstdin = \"closed\"\n"
	got, _ := setInText(multi, "tools.shell.inherit_env", `["C"]`)
	if got != "[tools.shell]\ninherit_env = [\"C\"]\nstdin = \"closed\"\n" {
		t.Errorf("multi-line value: %q", got)
	}
	if _, err := setInText("[models]\ncoder = { model = \"m\" }\n", "models.coder.model", `"n"`); err == nil {
		t.Error("edit inside an inline table accepted")
	}
}

func TestCLIOverridesStayAuthoritativeAfterSave(t *testing.T) {
	path := writeConfig(t, commented)
	cfg, err := Open(Options{File: path, Overrides: []string{"harness.max_turns=3"}})
	if err != nil {
		t.Fatal(err)
	}
	d := cfg.Edit()
	d.Set("harness.max_turns", "50")
	d.Set("harness.max_tool_calls", "20")
	res, err := d.Save()
	if err != nil {
		t.Fatal(err)
	}
	if err := res.Config.CarryOverrides(cfg); err != nil {
		t.Fatal(err)
	}
	if res.Config.Int("harness.max_turns") != 3 || res.Config.Source("harness.max_turns") != SourceCLI {
		t.Errorf("override replaced by saved value: %d", res.Config.Int("harness.max_turns"))
	}
	if res.Config.Int("harness.max_tool_calls") != 20 {
		t.Error("saved value lost")
	}
	if data, _ := os.ReadFile(path); !strings.Contains(string(data), "max_turns = 50") {
		t.Errorf("saved file:\n%s", data)
	}
}

func TestOutsideChangeKindsAndReset(t *testing.T) {
	path := writeConfig(t, commented)
	cfg, _ := Load(path)
	if k, err := cfg.OutsideChangeKind(); k != ChangeNone || err != nil {
		t.Fatalf("%s %v", k, err)
	}
	os.WriteFile(path, []byte(commented+"\n# touched\n"), 0o640)
	if k, _ := cfg.OutsideChangeKind(); k != ChangeModified {
		t.Errorf("in-place edit: %s", k)
	}
	tmp := path + ".new"
	os.WriteFile(tmp, []byte(commented), 0o640)
	os.Rename(tmp, path)
	if k, _ := cfg.OutsideChangeKind(); k != ChangeReplaced {
		t.Errorf("rename over: %s", k)
	}
	os.Remove(path)
	if k, _ := cfg.OutsideChangeKind(); k != ChangeDeleted {
		t.Errorf("deleted: %s", k)
	}
	os.WriteFile(path, []byte(commented), 0o640)
	cfg, _ = Load(path)
	d := cfg.Edit()
	if err := d.Reset("harness.max_turns"); err != nil {
		t.Fatal(err)
	}
	res, err := d.Save()
	if err != nil || res.Config.Int("harness.max_turns") != 30 || res.Config.Source("harness.max_turns") != SourceFile {
		t.Fatalf("reset: %v", err)
	}
}
