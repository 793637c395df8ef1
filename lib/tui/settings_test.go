package tui

import (
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"
	"github.com/josecorral/fluzo/lib/port"
	"github.com/josecorral/fluzo/lib/tui/theme"
)

func selectKey(t *testing.T, h *harness, k string) {
	t.Helper()
	f := h.app.cfg.form
	for range len(f.Groups()) {
		for i, e := range f.Visible() {
			if e.Key == k {
				for f.Selected() != i {
					if f.Selected() < i {
						h.keys(key(tcell.KeyDown))
					} else {
						h.keys(key(tcell.KeyUp))
					}
				}
				return
			}
		}
		h.keys(key(tcell.KeyTab))
	}
	t.Fatalf("%s is on no screen", k)
}

func sentEdits(t *testing.T, m map[string]any) []port.ConfigEdit {
	t.Helper()
	if m == nil {
		t.Fatal("no config_change was sent")
	}
	edits, _ := m["changes"].([]port.ConfigEdit)
	return edits
}

func TestSettingsScreensListEveryGroupWithTheEntryFacts(t *testing.T) {
	h := newHarness(t, 120, 40, Options{FPS: 0})
	h.connectSettings(nil)
	h.keys(key(tcell.KeyF2))
	h.mustShow("Settings")
	h.mustShow("Models and pools")
	h.mustShow("models.coder.max_in_flight")
	h.mustShow("ref: FLUZO_API_KEY") // a secret reference, never a value
	for _, g := range []string{"Limits", "Storage", "Telemetry", "Theme", "Notifications", "Developer menu", "All / advanced"} {
		h.keys(key(tcell.KeyTab))
		h.mustShow(g)
	}
	h.keys(key(tcell.KeyTab), key(tcell.KeyTab)) // back to Limits
	selectKey(t, h, "harness.max_turns")
	h.mustShow("default 30 · source .fluzo · unit turns")
	h.mustShow("valid: an integer from 1 to 10000 · applies at the next safe boundary")
	selectKey(t, h, "telemetry.archive_enabled")
	h.mustShow("[unsaved, pending restart]")
	h.mustShow("applies after a restart")
	h.mustShow("applied to this session, not saved: .fluzo has [x] on")
}

// An invalid value gets an inline error naming the key, the prior value
// stays and nothing is sent; out of range is refused, never clamped.
func TestSettingsInvalidValueIsInlineAndKeepsThePriorValue(t *testing.T) {
	h := newHarness(t, 120, 40, Options{FPS: 0})
	h.connectSettings(nil)
	h.keys(key(tcell.KeyF2))
	selectKey(t, h, "harness.max_turns")
	h.keys(key(tcell.KeyEnter), key(tcell.KeyBackspace2), key(tcell.KeyBackspace2))
	h.keys(typed("10001")...)
	h.keys(key(tcell.KeyEnter))
	h.mustShow("invalid: harness.max_turns: 10001 is above the maximum 10000")
	h.keys(key(tcell.KeyEscape), key(tcell.KeyCtrlA))
	if h.port.last("config_change") != nil {
		t.Fatal("an invalid value was sent")
	}
	selectKey(t, h, "tui.notifications.max_visible")
	h.keys(key(tcell.KeyRight), key(tcell.KeyRight), key(tcell.KeyRight))
	h.mustShow("6 is above the maximum 5")
	h.mustShow("5 [changed, invalid]")
}

func TestSettingsApplySendsTheChangesAndShowsWhenTheyApply(t *testing.T) {
	h := newHarness(t, 120, 40, Options{FPS: 0})
	h.connectSettings(nil)
	h.keys(key(tcell.KeyF2))
	selectKey(t, h, "models.coder.max_in_flight")
	h.keys(key(tcell.KeyRight))
	selectKey(t, h, "harness.max_turns")
	h.keys(key(tcell.KeyLeft))
	h.keys(key(tcell.KeyCtrlA))
	m := h.port.last("config_change")
	edits := sentEdits(t, m)
	if m["origin"] != "settings" || m["save"] != nil || len(edits) != 2 ||
		edits[0] != (port.ConfigEdit{Key: "models.coder.max_in_flight", Value: "2"}) || edits[1] != (port.ConfigEdit{Key: "harness.max_turns", Value: "29"}) {
		t.Fatalf("sent %v", m)
	}
	ans := settingsAck(func(e map[string]map[string]any) {
		e["models.coder.max_in_flight"]["value"], e["models.coder.max_in_flight"]["edited"] = 2, true
		e["harness.max_turns"]["value"], e["harness.max_turns"]["edited"] = 29, true
	})
	ans = strings.Replace(ans, `"settings":[`, `"applied":[{"key":"models.coder.max_in_flight","value":2,"when":"now"},{"key":"harness.max_turns","value":29,"when":"next_task"}],"settings":[`, 1)
	h.ack(ans)
	h.mustShow("applied now: models.coder.max_in_flight · next task: harness.max_turns")
	h.mustShow("29 [unsaved]")
	h.keys(key(tcell.KeyCtrlS))
	if m := h.port.last("config_change"); m["save"] != true {
		t.Fatalf("ctrl+s sent %v", m)
	}
}

// The runtime's diagnostics land inline at their key; a conflict asks to
// merge; a security change asks for consent and resends with it.
func TestSettingsRuntimeRefusalsConflictAndConsent(t *testing.T) {
	h := newHarness(t, 120, 40, Options{FPS: 0})
	h.connectSettings(nil)
	h.keys(key(tcell.KeyF2))
	selectKey(t, h, "harness.max_turns")
	h.keys(key(tcell.KeyRight), key(tcell.KeyCtrlA))
	h.records(`{"v":1,"type":"error","re":"3","error":{"code":"invalid_configuration","message":"x","details":{"diagnostics":[{"key":"harness.max_turns","problem":"31 is out of range","valid":"an integer from 1 to 30"}]}}}`)
	h.mustShow("invalid: harness.max_turns: 31 is out of range (valid: an integer from 1 to 30)")
	h.keys(key(tcell.KeyCtrlS))
	h.records(`{"v":1,"type":"error","re":"4","error":{"code":"confirmation_required","message":".fluzo was modified","details":{"outside_change":"modified","conflicts":["harness.max_turns"]}}}`)
	h.mustShow(".fluzo was modified outside this session")
	h.mustShow("Changed on both sides: harness.max_turns")
	h.keys(runeKey('m'))
	if m := h.port.last("config_change"); m["merge"] != true || m["save"] != true || len(sentEdits(t, m)) != 1 {
		t.Fatalf("merge sent %v", m)
	}
	selectKey(t, h, "decision.enabled")
	h.keys(runeKey(' '), key(tcell.KeyCtrlA))
	h.records(`{"v":1,"type":"error","re":"6","error":{"code":"configuration_required","message":"no consent for this configuration: it sends data to http://127.0.0.1:8080/laya","details":{"fingerprint":"sha256:x"}}}`)
	h.mustShow("y: record consent and apply")
	h.keys(runeKey('y'))
	m := h.port.last("config_change")
	if m["consent"] != true || len(sentEdits(t, m)) == 0 {
		t.Fatalf("consent resend %v", m)
	}
}

// A key set on the command line (--set for the runtime, fluzo-tui's own
// flags for tui.*) is shown locked and no control changes it.
func TestSettingsCommandLineKeysAreLocked(t *testing.T) {
	h := newHarness(t, 120, 40, Options{FPS: 30, FPSSet: true})
	h.connectSettings(func(e map[string]map[string]any) {
		e["harness.max_turns"]["source"], e["harness.max_turns"]["locked"] = "cli", true
	})
	h.keys(key(tcell.KeyF2))
	for _, k := range []string{"harness.max_turns", "tui.animation_fps"} {
		selectKey(t, h, k)
		h.keys(key(tcell.KeyRight), key(tcell.KeyEnter), key(tcell.KeyCtrlD))
		h.mustShow("source command line (locked)")
		h.mustShow("locked (cli)")
	}
	if h.app.cfg.form.Dirty() {
		t.Fatal("a locked key changed")
	}
}

func TestThemePickerPreviewsLiveAndEscRestores(t *testing.T) {
	h := newHarness(t, 120, 40, Options{FPS: 0, Caps: theme.Caps{Depth: theme.TrueColor}})
	h.connectSettings(nil)
	h.keys(key(tcell.KeyF3))
	h.mustShow("default (in effect)")
	h.keys(key(tcell.KeyDown))
	if h.app.th.Name() != theme.NameHighContrast {
		t.Fatal("moving does not preview the theme")
	}
	h.keys(key(tcell.KeyEscape))
	if h.app.th.Name() != theme.NameDefault || h.port.last("config_change") != nil {
		t.Fatal("esc did not restore the prior theme, or sent something")
	}
	h.keys(key(tcell.KeyF3), key(tcell.KeyDown), key(tcell.KeyEnter))
	m := h.port.last("config_change")
	if e := sentEdits(t, m); m["origin"] != "theme_picker" || len(e) != 1 || e[0].Value != "high_contrast" || m["save"] != nil {
		t.Fatalf("enter sent %v", m)
	}
	h.keys(key(tcell.KeyF3), key(tcell.KeyCtrlS))
	if m := h.port.last("config_change"); m["save"] != true {
		t.Fatalf("ctrl+s sent %v", m)
	}
	h2 := newHarness(t, 120, 40, Options{FPS: 0, Theme: theme.NameDefault})
	h2.connectSettings(nil)
	h2.keys(key(tcell.KeyF3))
	if h2.app.dialog == dialogTheme {
		t.Fatal("--theme must lock the picker")
	}
}

// A saved tui.theme from the settings answer is drawn.
func TestSettingsAnswerAppliesTheTheme(t *testing.T) {
	h := newHarness(t, 80, 24, Options{FPS: 0})
	h.connectSettings(func(e map[string]map[string]any) { e["tui.theme"]["value"] = "high_contrast" })
	if h.app.th.Name() != theme.NameHighContrast {
		t.Fatal("tui.theme = high_contrast not applied")
	}
}

func TestDeveloperMenuIsOffByDefault(t *testing.T) {
	h := newHarness(t, 120, 40, Options{FPS: 0})
	h.connectSettings(nil)
	h.keys(key(tcell.KeyF4))
	if h.app.dialog == dialogDevMenu {
		t.Fatal("the developer menu opened without --dev-menu or tui.dev_menu")
	}
	h.mustShow("off: start with --dev-menu")
	h.app.send(port.Settings())
	h.ack(settingsAck(func(e map[string]map[string]any) { e["tui.dev_menu"]["value"] = true }))
	h.keys(key(tcell.KeyF4))
	if h.app.dialog != dialogDevMenu {
		t.Fatal("tui.dev_menu = true does not enable it")
	}
}

// Previews are temporary and the draft, focus and scroll survive; the
// overlay labels application redraws; the preview pane is synthetic.
func TestDeveloperMenuPreviewsAndKeepsTheSession(t *testing.T) {
	h := newHarness(t, 160, 50, Options{FPS: 0, DevMenu: true, DevMenuSet: true, Caps: theme.Caps{Depth: theme.TrueColor}})
	h.connectSettings(nil)
	h.keys(typed("half a draft")...)
	focus, scroll := h.app.focus, h.app.scroll
	h.keys(key(tcell.KeyF4))
	h.mustShow("SYNTHETIC PREVIEW")
	h.mustShow("not a real session; nothing is sent")
	selectKey(t, h, "tui.theme")
	h.keys(key(tcell.KeyRight))
	if h.app.th.Name() != theme.NameHighContrast {
		t.Fatal("no preview of the theme")
	}
	selectKey(t, h, "tui.flags.render_diagnostics")
	h.keys(runeKey(' '))
	h.app.dirty.all = true
	h.app.render()
	h.app.dirty.all = true
	h.app.render()
	h.mustShow("application redraws, not display FPS")
	h.mustShow("skipped frames 0")
	h.keys(key(tcell.KeyEscape))
	if h.app.th.Name() != theme.NameDefault || h.app.cfg.renderDiag {
		t.Fatal("cancel kept the previews")
	}
	if h.app.comp.text != "half a draft" || h.app.focus != focus || h.app.scroll != scroll || h.port.last("config_change") != nil {
		t.Fatal("the developer menu changed the draft, focus or scroll, or sent a change")
	}
}

// Every developer-menu control, driven with every key, sends nothing but
// config_change from the dev_menu origin for keys the runtime flags as
// the catalog: no task, approval, YOLO, budget, pool or provider command.
func TestDeveloperMenuControlsReachOnlyTheCatalog(t *testing.T) {
	h := newHarness(t, 120, 40, Options{FPS: 0, DevMenu: true, DevMenuSet: true})
	h.connectSettings(nil)
	allowed := map[string]bool{}
	for _, e := range fixtureEntries() {
		if e["dev_menu"] == true {
			allowed[e["key"].(string)] = true
		}
	}
	h.keys(key(tcell.KeyF4))
	listed := h.app.cfg.form.Visible()
	if len(listed) != len(allowed) {
		t.Fatalf("the menu lists %d controls, the catalog has %d", len(listed), len(allowed))
	}
	before := len(h.port.sent)
	for i, e := range listed {
		if !allowed[e.Key] {
			t.Errorf("control %s is not in the catalog", e.Key)
		}
		selectKey(t, h, e.Key)
		for _, k := range []tcell.Key{tcell.KeyRight, tcell.KeyLeft, tcell.KeyRight, tcell.KeyCtrlD, tcell.KeyRight, tcell.KeyCtrlN} {
			h.keys(key(k))
		}
		h.keys(runeKey(' '), runeKey('y'), runeKey('a'), runeKey('t'), runeKey('d'), key(tcell.KeyCtrlY), key(tcell.KeyCtrlU))
		if i == len(listed)-1 {
			h.keys(key(tcell.KeyCtrlR), key(tcell.KeyRight), key(tcell.KeyCtrlA), key(tcell.KeyCtrlS))
		}
	}
	for _, m := range h.port.sent[before:] {
		if m["cmd"] != "config_change" || m["origin"] != "dev_menu" {
			t.Errorf("the developer menu sent %v", m)
			continue
		}
		for _, e := range sentEdits(t, m) {
			if !allowed[e.Key] {
				t.Errorf("the developer menu changed %s", e.Key)
			}
		}
	}
	if n := len(h.port.sent) - before; n != 2 {
		t.Errorf("%d commands sent, want apply and save", n)
	}
}

// Saving the theme over an outside change asks to merge in the picker too.
func TestThemePickerSaveConflictPrompts(t *testing.T) {
	h := newHarness(t, 120, 40, Options{FPS: 0})
	h.connectSettings(nil)
	h.keys(key(tcell.KeyF3), key(tcell.KeyDown), key(tcell.KeyCtrlS))
	h.records(`{"v":1,"type":"error","re":"3","error":{"code":"confirmation_required","message":"changed","details":{"outside_change":"replaced","conflicts":[]}}}`)
	h.mustShow(".fluzo was replaced outside this session")
	h.mustShow("m: merge")
	h.keys(runeKey('m'))
	if m := h.port.last("config_change"); m["merge"] != true || m["origin"] != "theme_picker" {
		t.Fatalf("merge sent %v", m)
	}
}

// New budgets while a task runs apply to future tasks unless the user
// also applies them to the running task, after seeing the new limits
// beside what it has used (PRD §26.2).
func TestSettingsBudgetsWhileATaskRunsAskWhereTheyApply(t *testing.T) {
	h := newHarness(t, 160, 50, Options{FPS: 0})
	running(h)
	h.app.send(port.Settings())
	h.ack(settingsAck(nil))
	h.keys(key(tcell.KeyF2))
	selectKey(t, h, "harness.max_turns")
	h.keys(key(tcell.KeyLeft), key(tcell.KeyCtrlA))
	if h.port.last("config_change") != nil {
		t.Fatal("budgets were applied to the running task without asking")
	}
	h.mustShow("used so far: unknown (asking the runtime)")
	h.ack(diagAnswer("tsk_1", "running", 4, 1, 1200, 300, unpriced))
	h.mustShow("used so far: 4 turns · ≥1500 tokens")
	h.mustShow("New limits: harness.max_turns 30 → 29")
	h.keys(runeKey('c'))
	m := h.port.last("config_change")
	if m["current_task"] != true || len(sentEdits(t, m)) != 1 {
		t.Fatalf("c sent %v", m)
	}
	selectKey(t, h, "harness.max_tool_calls")
	h.keys(key(tcell.KeyRight), key(tcell.KeyCtrlA), runeKey('f'))
	if m := h.port.last("config_change"); m["current_task"] != nil {
		t.Fatalf("f sent %v", m)
	}
}

func TestSettingsTypingSearchesTheKeys(t *testing.T) {
	h := newHarness(t, 120, 40, Options{FPS: 0})
	h.connectSettings(nil)
	h.keys(key(tcell.KeyF2), key(tcell.KeyBacktab)) // all / advanced
	h.keys(typed("inflight")...)
	h.mustShow("no key on this screen matches")
	h.keys(key(tcell.KeyCtrlU))
	h.keys(typed("in_flight")...)
	h.mustShow("filter: in_flight")
	if v := h.app.cfg.form.Visible(); len(v) != 2 {
		t.Fatalf("search lists %d keys", len(v))
	}
	h.keys(key(tcell.KeyRight))
	if c := h.app.cfg.form.Changes(); len(c) != 1 || c[0].Key != "models.coder.max_in_flight" {
		t.Fatalf("changes %v", c)
	}
}

// An applied notification setting reaches the notification stack.
func TestSettingsApplyReachesTheNotifications(t *testing.T) {
	h := newHarness(t, 120, 40, Options{FPS: 0})
	h.connectSettings(nil)
	h.keys(key(tcell.KeyF2))
	selectKey(t, h, "tui.notifications.max_visible")
	h.keys(key(tcell.KeyLeft), key(tcell.KeyCtrlA))
	h.ack(settingsAck(func(e map[string]map[string]any) { e["tui.notifications.max_visible"]["value"] = 2 }))
	if got := h.app.notes.q.Config().MaxVisible; got != 2 {
		t.Fatalf("max_visible %d after apply", got)
	}
}
