package agent

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/josecorral/fluzo/lib/config"
	"github.com/josecorral/fluzo/lib/consent"
	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/store"
)

// The port's settings surface (PRD §26.2, §43.3): the settings query
// answers every effective value with its registry entry, and config_change
// applies validated edits to this session and optionally saves them to
// .fluzo. Clients (the TUI) never read the registry or write the file
// themselves: this is the one validated path, with the consent check
// every security setting needs.

// settingsState is the session's configuration as clients changed it.
type settingsState struct {
	ws   store.Workspace
	opts OwnerOptions
	// base is the configuration as last read from or written to the file:
	// what an outside change is compared with.
	base *config.Config
	// next is a configuration applied while a task ran: the owner adopts it
	// before the next task starts (a safe boundary), so the running task
	// never sees its configuration change under it (except admission
	// limits, which the admission actor applies at once).
	next *config.Config
	// edited lists keys applied this session and not yet saved.
	edited []string
	// pendingRestart are applied keys that only a new process applies.
	pendingRestart map[string]bool
}

// settingEntry is one settings answer row: the effective value with its
// provenance and the registry facts a client needs to draw a control.
type settingEntry struct {
	config.Value
	Type        config.Kind    `json:"type"`
	Unit        string         `json:"unit,omitempty"`
	Default     any            `json:"default"`
	Min         *float64       `json:"min,omitempty"`
	Max         *float64       `json:"max,omitempty"`
	Options     []string       `json:"options,omitempty"`
	Valid       string         `json:"valid"`
	Privacy     config.Privacy `json:"privacy"`
	Apply       config.Apply   `json:"apply"`
	Description string         `json:"description"`
	Locked      bool           `json:"locked,omitempty"`
	DevMenu     bool           `json:"dev_menu,omitempty"`
	TaskBudget  bool           `json:"task_budget,omitempty"`
	Edited      bool           `json:"edited,omitempty"`
	// Saved is the value in .fluzo (or the default) of an edited key: what
	// a restart without saving would go back to.
	Saved          any  `json:"saved,omitempty"`
	PendingRestart bool `json:"pending_restart,omitempty"`
}

// sessionConfig is the configuration clients see: one applied while a
// task runs, else the owner's.
func (p *Port) sessionConfig() *config.Config {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.Owner.settings.next != nil {
		return p.Owner.settings.next
	}
	return p.Owner.Config
}

// settingsReply is the settings answer; settings comes first on the wire,
// where clients written against the older answer look for it.
type settingsReply struct {
	Settings []settingEntry `json:"settings"`
	File     string         `json:"file,omitempty"`
}

func (p *Port) settingsAnswer() settingsReply {
	cfg := p.sessionConfig()
	st := &p.Owner.settings
	edited := map[string]bool{}
	for _, k := range st.edited {
		edited[k] = true
	}
	var out []settingEntry
	for _, v := range cfg.Values() {
		s, ok := config.Lookup(v.Key)
		if !ok {
			continue
		}
		e := settingEntry{Value: v, Type: s.Kind, Unit: s.Unit, Default: s.Default, Options: s.Options,
			Valid: s.ValidRange(), Privacy: s.Privacy, Apply: s.Apply, Description: s.Description,
			Locked: v.Source == config.SourceCLI, DevMenu: config.InDevMenu(v.Key), TaskBudget: budgetKey(v.Key),
			Edited: edited[v.Key], PendingRestart: st.pendingRestart[v.Key]}
		if was, ok := st.base.Lookup(v.Key); ok && e.Edited {
			e.Saved = was.Value
		}
		if s.HasRange {
			lo, hi := s.Min, s.Max
			e.Min, e.Max = &lo, &hi
		}
		out = append(out, e)
	}
	return settingsReply{Settings: out, File: cfg.Path}
}

type configEdit struct {
	Key   string `json:"key"`
	Value string `json:"value"` // command-line text, as --set takes it
}

type configChangeArgs struct {
	core.Command
	Changes []configEdit `json:"changes,omitempty"`
	// Save writes this session's applied edits to .fluzo.
	Save bool `json:"save,omitempty"`
	// Merge saves over a change made to .fluzo since it was loaded: the
	// edited keys are applied onto the file as it is now.
	Merge bool `json:"merge,omitempty"`
	// Consent records the user's consent for the changed destinations or
	// security settings, answered in the client's consent prompt.
	Consent bool `json:"consent,omitempty"`
	// CurrentTask also hands changed task budgets to the running task (at
	// its next safe boundary): the additional explicit action PRD §26.2
	// requires. Without it they apply to the next task.
	CurrentTask bool `json:"current_task,omitempty"`
	// Origin is the client surface: settings (default), theme_picker or
	// dev_menu; the developer menu may change only config.DevMenuKeys.
	Origin string `json:"origin,omitempty"`
}

// configChange applies validated edits to this session (and saves them
// when asked). Nothing is applied unless every edit is valid, the result
// validates whole and any security change has consent; a change that
// also saves is applied only once the file is written, so a failed save
// leaves the configuration and the runtime as they were (PRD §26.2).
func (p *Port) configChange(ctx context.Context, raw []byte) (any, error) {
	var a configChangeArgs
	if err := core.DecodeStrict(raw, &a); err != nil {
		return nil, err
	}
	if err := checkOrigin(&a); err != nil {
		return nil, err
	}
	cur := p.sessionConfig()
	next := cur
	if len(a.Changes) > 0 {
		var err error
		if next, err = p.previewChanges(cur, a); err != nil {
			return nil, err
		}
	}
	ans := map[string]any{}
	var base *config.Config // the file as saved, when saving
	var unsaved []string    // applied keys this origin may not save
	if a.Save {
		keys := append([]string(nil), p.Owner.settings.edited...)
		for _, c := range a.Changes {
			if !contains(keys, c.Key) {
				keys = append(keys, c.Key)
			}
		}
		keys, unsaved = savable(a.Origin, keys)
		saved, info, err := p.saveSettings(next, keys, a.Merge)
		if err != nil {
			return nil, err
		}
		base = saved
		if next, err = keepUnsaved(saved, next, unsaved); err != nil {
			info["note"] = "saved; " + err.Error()
		}
		for k, v := range info {
			ans[k] = v
		}
	}
	effects := p.adopt(next, a.Changes, a.CurrentTask)
	if a.Save {
		p.Owner.settings.edited, p.Owner.settings.base = unsaved, base
	}
	ans["applied"] = effects
	p.recordChange(ctx, a.Origin, effects, a.Save)
	reply := p.settingsAnswer()
	ans["settings"], ans["file"] = reply.Settings, reply.File
	ans["saved"] = a.Save
	return ans, nil
}

// savable splits keys into those a save from origin writes and those it
// leaves applied but unsaved: the developer menu saves only its catalog
// and the theme picker only tui.theme (PRD §29.2.2: saving modifies only
// the selected UI preferences), whatever the settings screens applied
// earlier in this session.
func savable(origin string, keys []string) (save, rest []string) {
	for _, k := range keys {
		switch {
		case origin == "dev_menu" && !config.InDevMenu(k), origin == "theme_picker" && k != "tui.theme":
			rest = append(rest, k)
		default:
			save = append(save, k)
		}
	}
	return save, rest
}

// keepUnsaved is the session's configuration after a save that left keys
// unsaved: the saved file (so the next save compares with it, not with
// this session's own write) with those keys' applied values on top. When
// they no longer validate on the file as saved (an outside change merged
// in), the session keeps next as it was.
func keepUnsaved(saved, next *config.Config, keys []string) (*config.Config, error) {
	if len(keys) == 0 || saved == next {
		return saved, nil
	}
	d := saved.Edit()
	for _, k := range keys {
		v, _ := next.Lookup(k)
		if err := d.SetValue(k, v.Value); err != nil {
			return next, fmt.Errorf("the unsaved keys stay applied as before: %v", err)
		}
	}
	cfg, err := d.Preview()
	if err != nil {
		return next, fmt.Errorf("the unsaved keys stay applied as before: %v", err)
	}
	return cfg, nil
}

func checkOrigin(a *configChangeArgs) error {
	switch a.Origin {
	case "":
		a.Origin = "settings"
	case "settings", "theme_picker", "dev_menu":
	default:
		return core.Errorf(core.CodeInvalidRequest, "origin must be settings, theme_picker or dev_menu, not %q", a.Origin)
	}
	if len(a.Changes) == 0 && !a.Save {
		return core.Errorf(core.CodeInvalidRequest, "config_change needs changes or save").
			WithHint(`send "changes":[{"key":"...","value":"..."}] and/or "save":true`)
	}
	for _, c := range a.Changes {
		if a.Origin == "dev_menu" && !config.InDevMenu(c.Key) {
			return core.Errorf(core.CodeInvalidRequest, "the developer menu cannot change %s", c.Key).
				WithHint("it changes only %s", strings.Join(config.DevMenuKeys(), ", ")).With("key", c.Key)
		}
		if a.Origin == "theme_picker" && c.Key != "tui.theme" {
			return core.Errorf(core.CodeInvalidRequest, "the theme picker changes only tui.theme, not %s", c.Key).With("key", c.Key)
		}
	}
	return nil
}

// previewChanges validates the edits on cur and returns the configuration
// they give, checking consent when a security value changed.
func (p *Port) previewChanges(cur *config.Config, a configChangeArgs) (*config.Config, error) {
	d := cur.Edit()
	var problems []config.Diagnostic
	for _, c := range a.Changes {
		if v, ok := cur.Lookup(c.Key); ok && v.Source == config.SourceCLI {
			problems = append(problems, config.Diagnostic{Key: c.Key,
				Problem: "set on the command line (--set) for this session: locked here", Valid: "restart without --set " + c.Key})
			continue
		}
		if _, ok := cur.Lookup(c.Key); !ok {
			problems = append(problems, config.Diagnostic{Key: c.Key, Problem: "no such setting in this configuration",
				Valid: "a key the settings query lists"})
			continue
		}
		if err := d.Set(c.Key, c.Value); err != nil {
			problems = append(problems, config.Diagnostics(err)...)
		}
	}
	if len(problems) > 0 {
		return nil, invalidEdits(problems)
	}
	next, err := d.Preview()
	if err != nil {
		return nil, err
	}
	if next.Fingerprint() != cur.Fingerprint() {
		if err := p.consentFor(next, a.Consent); err != nil {
			return nil, err
		}
	}
	return next, nil
}

func invalidEdits(list []config.Diagnostic) *core.Error {
	lines := make([]string, len(list))
	for i, d := range list {
		lines[i] = d.String()
	}
	return core.Errorf(core.CodeInvalidConfiguration, "%s", strings.Join(lines, "; ")).
		WithHint("nothing was applied; fix the listed keys").With("diagnostics", list)
}

// consentFor requires recorded consent for cfg (invariant 14), recording
// it first when the user answered the client's consent prompt. The
// plain-HTTP exception is never granted this way.
func (p *Port) consentFor(cfg *config.Config, record bool) error {
	st := &p.Owner.settings
	dir := st.opts.ConsentDir
	if dir == "" {
		dir = consent.DefaultDir()
	}
	cs := consent.Store{Dir: dir}
	sc := consent.Scope{Workspace: st.ws, Config: cfg, ConfigFile: st.opts.ConfigFile, Overrides: st.opts.Overrides}
	if record {
		if _, err := cs.Grant(sc, consent.HowPrompt, nil); err != nil {
			return err
		}
	}
	rec, err := cs.Check(sc)
	if err != nil {
		return err
	}
	p.mu.Lock()
	p.Owner.consent = rec
	p.mu.Unlock()
	return nil
}

// effect is when one applied key takes effect.
type effect struct {
	Key     string `json:"key"`
	Value   any    `json:"value"`
	Privacy string `json:"privacy"`
	// When is now (this session, the admission actor included),
	// safe_boundary (a task budget the running task takes before its next
	// turn), next_task (a task is running: the next one uses it) or
	// restart (pending until fluzo-agent serve restarts).
	When string `json:"when"`
}

// adopt makes next the session's configuration: the admission actor
// takes new model and pool limits at once (lowered limits drain, a raised
// one admits waiting requests), a running task takes new budgets at its
// next safe boundary when the user asked for that (currentTask),
// everything else applies to the next task.
func (p *Port) adopt(next *config.Config, changes []configEdit, currentTask bool) []effect {
	st := &p.Owner.settings
	p.Owner.admission.Apply(next)
	p.mu.Lock()
	running, inbox := p.running, p.inbox
	if running {
		st.next = next
	} else {
		p.Owner.Config, st.next = next, nil
	}
	p.mu.Unlock()
	budgetsChanged := false
	var out []effect
	for _, c := range changes {
		s, _ := config.Lookup(c.Key)
		v, _ := next.Lookup(c.Key)
		e := effect{Key: c.Key, Value: redactedValue(s, v.Value), Privacy: string(s.Privacy), When: "now"}
		switch {
		case s.Apply == config.ApplyRestart:
			e.When = "restart"
			if st.pendingRestart == nil {
				st.pendingRestart = map[string]bool{}
			}
			st.pendingRestart[c.Key] = true
		case admissionKey(c.Key), strings.HasPrefix(c.Key, "tui."):
		case running && currentTask && budgetKey(c.Key) && inbox != nil:
			e.When, budgetsChanged = "safe_boundary", true
		case running:
			e.When = "next_task"
		}
		if !contains(st.edited, c.Key) {
			st.edited = append(st.edited, c.Key)
		}
		out = append(out, e)
	}
	if budgetsChanged {
		inbox.setBudgets(budgetsOf(next))
	}
	return out
}

// adoptNext is called before a task starts: a configuration applied while
// the previous task ran becomes the owner's.
func (p *Port) adoptNext() {
	if st := &p.Owner.settings; st.next != nil {
		p.Owner.Config, st.next = st.next, nil
	}
}

// admissionKey: the admission actor applies these to running work.
func admissionKey(key string) bool {
	return strings.HasPrefix(key, "capacity_pools.") || strings.HasPrefix(key, "models.") && strings.HasSuffix(key, ".max_in_flight")
}

func redactedValue(s config.Setting, v any) any {
	if s.Privacy == config.PrivacyPublic {
		return v
	}
	return "[redacted]"
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// saveSettings writes keys of cfg (this session's applied edits and the
// new ones) to .fluzo: only those keys, onto the file as it is now,
// comments and layout kept. A file changed since it was loaded is a
// confirmation_required conflict unless merge is set; a read-only file is
// refused before anything is written. It returns the configuration to
// adopt: the saved file's (so the next save compares with it), with the
// CLI overrides carried, or cfg itself when outside changes merged in need
// consent first (they then apply after a restart).
func (p *Port) saveSettings(cfg *config.Config, keys []string, merge bool) (*config.Config, map[string]any, error) {
	if cfg.Path == "" {
		return nil, nil, core.Errorf(core.CodeConfigurationRequired, "this session's configuration was not loaded from a file").
			WithHint("run 'fluzo init' to write .fluzo first")
	}
	if err := writable(cfg.Path); err != nil {
		return nil, nil, err
	}
	kind, err := cfg.OutsideChangeKind()
	if err != nil {
		return nil, nil, core.Wrap(err, core.CodeStorageError, "cannot read "+cfg.Path+" to check it before saving").
			WithHint("nothing was written or applied; your edits are kept")
	}
	if kind != config.ChangeNone && !merge {
		return nil, nil, core.Errorf(core.CodeConfirmationRequired, "%s was %s outside this session since it was loaded", cfg.Path, kind).
			WithHint("save again with merge to write only your edited keys onto the file as it is now; nothing was written or applied").
			With("outside_change", kind).With("conflicts", p.conflicts(cfg.Path, keys))
	}
	d := cfg.Edit()
	for _, k := range keys {
		v, _ := cfg.Lookup(k)
		if err := d.SetValue(k, v.Value); err != nil {
			return nil, nil, err
		}
	}
	res, err := d.Save()
	if err != nil {
		return nil, nil, err
	}
	info := map[string]any{"file": cfg.Path, "written": keys, "outside_change": kind}
	if err := res.Config.CarryOverrides(cfg); err != nil || p.consentFor(res.Config, false) != nil {
		info["note"] = "changes made outside this session need consent or a restart to apply"
		return cfg, info, nil
	}
	return res.Config, info, nil
}

// conflicts lists edited keys whose value in the file changed since it was
// loaded: a merge would overwrite someone else's edit of the same key.
func (p *Port) conflicts(path string, keys []string) []string {
	st := &p.Owner.settings
	disk, err := config.Load(path)
	if err != nil || st.base == nil {
		return nil
	}
	out := []string{}
	for _, k := range keys {
		was, _ := st.base.Lookup(k)
		now, _ := disk.Lookup(k)
		if fmt.Sprint(was.Value) != fmt.Sprint(now.Value) {
			out = append(out, k)
		}
	}
	return out
}

// writable refuses a .fluzo without write permission bits (root could
// replace it anyway) or that this process cannot open for writing.
func writable(path string) error {
	st, err := os.Stat(path)
	if err != nil {
		return core.Wrap(err, core.CodeStorageError, "cannot stat "+path+" before saving").
			WithHint("nothing was written or applied; your edits are kept")
	}
	ro := st.Mode().Perm()&0o222 == 0
	if !ro {
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			ro = true
		} else {
			f.Close()
		}
	}
	if ro {
		return core.Errorf(core.CodeStorageError, "%s is read-only (mode %04o): the settings were not saved", path, st.Mode().Perm()).
			WithHint("make it writable (chmod u+w %s) and save again; nothing was written or applied, your edits are kept", path).With("path", path)
	}
	return nil
}

// recordChange emits the redacted configuration-change diagnostic.
func (p *Port) recordChange(ctx context.Context, origin string, effects []effect, saved bool) {
	if len(effects) == 0 && !saved {
		return
	}
	data := map[string]any{"origin": origin, "changes": effects, "saved": saved}
	j := &storeJournal{S: p.Owner.Store, Emit: func(ev core.Event) { p.Emit(ev) }}
	if _, err := j.Record(ctx, p.Owner.running(), core.EvConfigChanged, data); err != nil {
		p.Emit(map[string]any{"v": 1, "type": "live.warning", "message": "the configuration change was applied but its diagnostic was not recorded", "error": core.AsError(err)})
	}
}
