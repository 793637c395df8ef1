package tui

import (
	"encoding/json"
	"sort"
	"strconv"
	"strings"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/port"
	"github.com/josecorral/fluzo/lib/tui/form"
	"github.com/josecorral/fluzo/lib/tui/redraw"
	"github.com/josecorral/fluzo/lib/tui/theme"
)

// The settings surfaces (settings screens, theme picker, developer menu)
// are generated from the entries the port's settings query answers —
// lib/config's registry, sent over the wire, since lib/tui sees only port
// records. Edits go back as one config_change command: the runtime
// validates, checks consent, applies (model and pool limits to the
// running admission actor) and saves; the TUI never writes .fluzo.

// settingsUI is the state of the settings surfaces.
type settingsUI struct {
	entries []form.Entry
	file    string
	form    *form.Form   // the open settings screens or developer menu
	picker  *form.Picker // the open theme picker
	origin  string       // settings, theme_picker or dev_menu: who sent the last change
	sent    []port.ConfigEdit
	sentOpt port.ChangeOptions // a consent or current-task answer resends with these
	status  string
	isError bool
	prompt  settingsPrompt
	// devMenu is on with --dev-menu or tui.dev_menu = true (off by
	// default, PRD §29.2.2); renderDiag shows the redraw overlay.
	devMenu, renderDiag bool
	synthetic           int  // the developer menu's synthetic logo state
	showPreview         bool // narrow developer menu: the preview instead of the controls
	meter               redraw.Meter
}

type promptKind uint8

const (
	promptNone        promptKind = iota
	promptConflict               // .fluzo changed outside: m merges
	promptConsent                // a security change needs consent: y records it
	promptCurrentTask            // budgets while a task runs: c applies to it, f to future tasks
)

type settingsPrompt struct {
	kind promptKind
	text []string
}

// entriesFrom converts the settings answer into form entries, marking the
// keys fluzo-tui's own flags set as locked (they override tui.* for this
// session, like --set does for the runtime).
func (a *App) entriesFrom(list []port.SettingEntry) []form.Entry {
	out := make([]form.Entry, 0, len(list))
	for _, s := range list {
		e := form.Entry{Key: s.Key, Type: s.Type, Unit: s.Unit, Source: s.Source, Privacy: s.Privacy,
			Apply: s.Apply, Description: s.Description, Valid: s.Valid, Value: valueText(s.Value),
			Default: valueText(s.Default), Saved: valueText(s.Saved), Line: s.Line, Min: s.Min, Max: s.Max, Options: s.Options, Locked: s.Locked,
			Edited: s.Edited, PendingRestart: s.PendingRestart, DevMenu: s.DevMenu, TaskBudget: s.TaskBudget}
		if a.tuiFlagSets(s.Key) {
			e.Locked, e.Source = true, "cli"
		}
		out = append(out, e)
	}
	return out
}

// tuiFlagSets reports a key fluzo-tui's command line set.
func (a *App) tuiFlagSets(key string) bool {
	switch key {
	case "tui.theme":
		return a.opts.Theme != ""
	case "tui.animation_fps":
		return a.opts.FPSSet
	case "tui.reduced_motion":
		return a.opts.ReducedMotion
	case "tui.dev_menu":
		return a.opts.DevMenuSet
	}
	return false
}

// valueText renders a JSON value as command-line text: strings bare,
// numbers and booleans as written, lists and tables in TOML syntax.
func valueText(raw json.RawMessage) string {
	var v any
	if len(raw) == 0 || json.Unmarshal(raw, &v) != nil {
		return ""
	}
	switch x := v.(type) {
	case string:
		return x
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		parts := make([]string, len(keys))
		for i, k := range keys {
			s, _ := x[k].(string)
			parts[i] = strconv.Quote(k) + " = " + strconv.Quote(s)
		}
		if len(parts) == 0 {
			return "{}"
		}
		return "{ " + strings.Join(parts, ", ") + " }"
	}
	return string(raw)
}

// takeSettings folds a settings (or config_change) answer into the
// surfaces and applies the presentation settings.
func (a *App) takeSettings(raw json.RawMessage) {
	var ans port.SettingsAnswer
	if json.Unmarshal(raw, &ans) != nil || ans.Settings == nil {
		return
	}
	a.cfg.entries, a.cfg.file = a.entriesFrom(ans.Settings), ans.File
	if a.cfg.form != nil {
		a.cfg.form.SetEntries(a.cfg.entries)
	}
	a.applyPresentation(a.effective(nil))
}

// effective maps key → value text, with f's staged edits over the
// entries when f is given (a preview).
func (a *App) effective(f *form.Form) map[string]string {
	out := make(map[string]string, len(a.cfg.entries))
	for _, e := range a.cfg.entries {
		out[e.Key] = e.Value
		if f != nil {
			out[e.Key] = f.Shown(e)
		}
	}
	return out
}

// applyPresentation makes the tui.* values take effect in this screen:
// theme, animation rate, reduced motion, the render overlay and the
// developer menu's availability. fluzo-tui's own flags win.
func (a *App) applyPresentation(v map[string]string) {
	if !a.opts.FPSSet && !a.opts.ReducedMotion {
		fps, err := strconv.Atoi(v["tui.animation_fps"])
		if err == nil && fps >= 0 && fps <= 60 && fps != a.fps() {
			a.fr = newFrames(fps)
		}
		if v["tui.reduced_motion"] == "true" {
			a.fr = newFrames(0)
		}
	}
	if a.opts.Theme == "" {
		a.setTheme(themeName(v["tui.theme"]))
	}
	a.cfg.renderDiag = v["tui.flags.render_diagnostics"] == "true"
	if !a.opts.DevMenuSet {
		a.cfg.devMenu = v["tui.dev_menu"] == "true"
	}
}

// themeName maps tui.theme's value to the theme package's name.
func themeName(setting string) string {
	if setting == "high_contrast" {
		return theme.NameHighContrast
	}
	return theme.NameDefault
}

func (a *App) setTheme(name string) {
	if a.th != nil && a.th.Name() == name {
		return
	}
	th, err := theme.New(name, a.opts.Caps)
	if err != nil {
		return
	}
	a.th = th
	a.p.style = th.Style
	a.dirty.all = true
}

// sendChange sends edits from origin.
func (a *App) sendChange(origin string, edits []port.ConfigEdit, o port.ChangeOptions) {
	if len(edits) == 0 && !o.Save {
		a.settingsStatus("nothing to apply: change a value first", false)
		return
	}
	a.cfg.origin, a.cfg.sent, a.cfg.sentOpt, a.cfg.prompt = origin, edits, o, settingsPrompt{}
	a.send(port.ConfigChange(origin, edits, o))
	a.settingsStatus("sent to the runtime…", false)
}

func editsOf(cs []form.Change) []port.ConfigEdit {
	out := make([]port.ConfigEdit, len(cs))
	for i, c := range cs {
		out[i] = port.ConfigEdit{Key: c.Key, Value: c.Value}
	}
	return out
}

func (a *App) settingsStatus(s string, isError bool) {
	a.cfg.status, a.cfg.isError = safeLine(s), isError
}

// configChanged takes a config_change answer: new entries and when each
// applied key takes effect.
func (a *App) configChanged(raw json.RawMessage) {
	var ans port.SettingsAnswer
	json.Unmarshal(raw, &ans)
	a.takeSettings(raw)
	a.notificationSettings(a.effective(nil)) // applied tui.notifications.* take effect here too
	when := map[string][]string{}
	for _, e := range ans.Applied {
		when[e.When] = append(when[e.When], safeLine(e.Key))
	}
	var parts []string
	for _, w := range []struct{ key, label string }{
		{"now", "now: "}, {"safe_boundary", "running task, next turn: "}, {"next_task", "next task: "},
		{"restart", "after restart (pending): "},
	} {
		if keys := when[w.key]; len(keys) > 0 {
			parts = append(parts, w.label+strings.Join(keys, ", "))
			delete(when, w.key)
		}
	}
	for w, keys := range when { // a "when" this client does not know: said as it is
		parts = append(parts, safeLine(w)+": "+strings.Join(keys, ", "))
	}
	msg := "applied " + strings.Join(parts, " · ")
	if len(parts) == 0 {
		msg = "nothing new to apply"
	}
	if ans.Saved {
		msg += " · saved to " + shortPath(a.cfg.file, 3)
	}
	a.settingsStatus(msg, false)
	if e := a.themeEntry(); a.cfg.picker != nil && e != nil {
		a.cfg.picker = form.NewPicker(e.Options, e.Value) // what Esc restores now
	}
	if a.dialog == dialogNone {
		a.setNotice(a.cfg.status)
	}
}

// configRefused shows why a change was not applied or saved: each
// diagnostic inline at its key (the prior value stays), a conflict or a
// consent question as a prompt.
func (a *App) configRefused(e core.Error) {
	if list, ok := e.Details["diagnostics"].([]any); ok && a.cfg.form != nil {
		for _, d := range list {
			m, _ := d.(map[string]any)
			key, _ := m["key"].(string)
			problem, _ := m["problem"].(string)
			valid, _ := m["valid"].(string)
			if valid != "" {
				problem += " (valid: " + valid + ")"
			}
			a.cfg.form.SetError(key, safeLine(key+": "+problem))
		}
	}
	switch {
	case e.Code == core.CodeConfirmationRequired && e.Details["outside_change"] != nil:
		kind, _ := e.Details["outside_change"].(string)
		text := []string{".fluzo was " + safeLine(kind) + " outside this session since it was loaded."}
		if cs, _ := e.Details["conflicts"].([]any); len(cs) > 0 {
			var keys []string
			for _, c := range cs {
				s, _ := c.(string)
				keys = append(keys, safeLine(s))
			}
			text = append(text, "Changed on both sides: "+strings.Join(keys, ", "))
		}
		text = append(text, "m: merge (write only your keys onto the file as it is now) · esc: cancel")
		a.cfg.prompt = settingsPrompt{promptConflict, text}
		a.settingsStatus("not saved yet: the file changed outside", true)
	case e.Code == core.CodeConfigurationRequired && e.Details["fingerprint"] != nil:
		a.cfg.prompt = settingsPrompt{promptConsent, []string{safeLine(e.Message),
			"y: record consent and apply · esc: cancel (nothing is applied)"}}
		a.settingsStatus("needs consent: nothing was applied", true)
	default:
		a.settingsStatus("not applied: "+safeLine(e.Message)+hintSuffix(e.Hint), true)
	}
}

func hintSuffix(h string) string {
	if h == "" {
		return ""
	}
	return " — " + safeLine(h)
}

// promptKey answers an open conflict or consent prompt.
func (a *App) promptKey(r rune, esc bool) bool {
	switch {
	case a.cfg.prompt.kind == promptNone:
		return false
	case esc:
		a.cfg.prompt = settingsPrompt{}
		a.settingsStatus("cancelled: nothing was written; changes not applied stay staged", false)
	case r == 'm' && a.cfg.prompt.kind == promptConflict:
		o := a.cfg.sentOpt
		o.Save, o.Merge = true, true
		a.sendChange(a.cfg.origin, a.cfg.sent, o)
	case r == 'y' && a.cfg.prompt.kind == promptConsent:
		o := a.cfg.sentOpt
		o.Consent = true
		a.sendChange(a.cfg.origin, a.cfg.sent, o)
	case (r == 'c' || r == 'f') && a.cfg.prompt.kind == promptCurrentTask:
		o := a.cfg.sentOpt
		o.CurrentTask = r == 'c'
		a.sendChange(a.cfg.origin, a.cfg.sent, o)
	}
	return true
}
