package setup

import (
	"path"

	"github.com/josecorral/fluzo/lib/config"
	"github.com/josecorral/fluzo/lib/core"
)

// Env is what the caller knows before the flow starts.
type Env struct {
	// Path is the .fluzo the flow writes.
	Path string
	// Workspace is the workspace root (its base name is the default
	// project name).
	Workspace string
	// Existing is a valid file already at Path (fluzo init): the flow asks
	// before replacing it and starts from its values.
	Existing *config.Config
	// Problems, when set, are the diagnostics of a malformed file at Path:
	// the flow only shows them; nothing is written.
	Problems []config.Diagnostic
	// Init is true when the person ran fluzo init: the last screen closes
	// rather than opening the session.
	Init bool
	// Cleartext tells a URL that is plain HTTP to a host that is not
	// loopback (lib/consent's rule); listing its models first asks for
	// an explicit second Ctrl+D. Nil: no URL is.
	Cleartext func(url string) bool
}

// Review is the consent store's redacted review of the written file.
type Review struct {
	Lines []string
	// Cleartext lists plain-HTTP destinations to non-loopback hosts:
	// recording consent accepts the warned exception for each.
	Cleartext []string
}

// Seam performs the flow's side effects. Each returns a short note for
// the screen (a backup path, the exclude file) or a typed error.
type Seam interface {
	// Write publishes data at Env.Path atomically: as a new file, never
	// replacing one that appeared meanwhile, or (replace) over the
	// existing file after keeping a backup.
	Write(data []byte, replace bool) (string, error)
	// Exclude adds /.fluzodrive/ to the repository's info/exclude.
	Exclude() (string, error)
	// Review describes what consent to the written file covers.
	Review() (Review, error)
	// Consent records consent to the written file (lib/consent, the rule
	// fluzo-admit consent grant uses), accepting allowHTTP.
	Consent(allowHTTP []string) (string, error)
}

// DiscoverRequest asks the caller to list the endpoint's models. Config
// holds the draft settings (base URL, credential reference); Gen ties
// the answer to the request so a stale one is ignored.
type DiscoverRequest struct {
	Gen    int
	Config *config.Config
}

// Effect is work the caller runs off the UI goroutine.
type Effect struct {
	Discover *DiscoverRequest
}

// Outcome is how the flow ended.
type Outcome struct {
	Written bool // a .fluzo was written
	Open    bool // the person asked to open the session
}

// maxFieldBytes bounds a typed value.
const maxFieldBytes = 1024

type field struct {
	spec    fieldSpec
	setting config.Setting
	value   string // the committed text (valid on its own)
	draft   string // what is being typed
	def     string // the built-in value in TOML form, as the screen shows it
	err     string
}

// Flow is the setup state machine.
type Flow struct {
	env     Env
	seam    Seam
	step    Step
	fields  map[string]*field
	focus   int
	stepErr string

	models      []string
	discovering bool
	discovery   string
	gen         int
	// warnedHTTP is the cleartext URL whose warning was shown; a second
	// request for exactly it is the acceptance, for this run only.
	warnedHTTP string

	scroll int
	data   []byte
	review Review

	writeNote, excludeNote, consentNote string
	written, finished                   bool
	outcome                             Outcome
}

// New starts the flow on env's first screen.
func New(env Env, seam Seam) *Flow {
	f := &Flow{env: env, seam: seam, fields: map[string]*field{}}
	// The built-in entries' values (the example endpoint, pool) are the
	// starting point, not only the per-field defaults.
	defaults := config.Defaults()
	for _, st := range formSteps {
		for _, fs := range stepFields[st] {
			s, _ := config.Lookup(fs.key)
			def, _ := defaults.Lookup(fs.key)
			v := textOf(def.Value)
			if env.Existing != nil {
				if cur, ok := env.Existing.Lookup(fs.key); ok {
					v = textOf(cur.Value)
				}
			}
			f.fields[fs.key] = &field{spec: fs, setting: s, value: v, draft: v, def: config.FormatValue(def.Value)}
		}
	}
	if env.Existing == nil && env.Workspace != "" {
		name := path.Base(env.Workspace)
		f.fields["project.name"].value, f.fields["project.name"].draft = name, name
	}
	switch {
	case len(env.Problems) > 0:
		f.step = StepDiagnosis
	case env.Existing != nil:
		f.step = StepReplace
	}
	return f
}

// textOf is a registry value as the person types it (strings bare).
func textOf(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	return config.FormatValue(v)
}

// Step is the current screen.
func (f *Flow) Step() Step { return f.step }

// Finished reports that the flow ended, and how.
func (f *Flow) Finished() (Outcome, bool) { return f.outcome, f.finished }

// Value returns the committed text of a setting the flow edits.
func (f *Flow) Value(key string) string { return f.text(key) }

func (f *Flow) text(key string) string {
	if fl, ok := f.fields[key]; ok {
		return fl.value
	}
	return ""
}

// Data is the file text prepared for the summary (nil before).
func (f *Flow) Data() []byte { return append([]byte(nil), f.data...) }

func (f *Flow) finish(open bool) {
	f.finished = true
	f.outcome = Outcome{Written: f.written, Open: open}
}

// visible lists the current step's fields that apply.
func (f *Flow) visible() []*field {
	var out []*field
	for _, fs := range stepFields[f.step] {
		if fs.shown == nil || fs.shown(f) {
			out = append(out, f.fields[fs.key])
		}
	}
	return out
}

func (f *Flow) current() *field {
	vs := f.visible()
	if f.focus < 0 || f.focus >= len(vs) {
		return nil
	}
	return vs[f.focus]
}

// errorText is a typed error as one line: what, then how to fix it.
func errorText(err error) string {
	e := core.AsError(err)
	if e.Hint != "" {
		return e.Message + "; " + e.Hint
	}
	return e.Message
}

// commit validates the focused field's draft on its own (the registry's
// type and range). An invalid draft keeps the prior value and shows the
// key-specific error.
func (f *Flow) commit() bool {
	fl := f.current()
	if fl == nil {
		return true
	}
	if _, problem := config.ParseValue(fl.setting, fl.draft); problem != "" {
		fl.err = fl.spec.key + ": " + problem + " (valid: " + fl.setting.ValidRange() + ")"
		if fl.setting.Privacy == config.PrivacyReference {
			fl.err = fl.spec.key + ": not accepted (valid: " + fl.setting.ValidRange() + ")"
		}
		return false
	}
	if fl.value != fl.draft && fl.spec.key == "models.coder.base_url" {
		f.forgetModels()
	}
	fl.value, fl.err = fl.draft, ""
	return true
}

// forgetModels drops a model list and any discovery in flight: they
// belong to an endpoint that is no longer the one entered.
func (f *Flow) forgetModels() {
	f.gen++
	f.models, f.discovering, f.discovery, f.warnedHTTP = nil, false, "", ""
}

func (f *Flow) isText(fl *field) bool {
	k := fl.setting.Kind
	return k != config.KindBool && k != config.KindEnum
}

// build turns the committed values into a configuration, with every
// problem the registry finds (each value alone, then together). Fields
// hidden by another choice keep their registry default.
func (f *Flow) build() (*config.Config, []config.Diagnostic) {
	cfg := config.Defaults()
	var ds []config.Diagnostic
	for _, st := range formSteps {
		for _, fs := range stepFields[st] {
			if fs.shown != nil && !fs.shown(f) {
				continue
			}
			if err := cfg.Override(fs.key, f.fields[fs.key].value); err != nil {
				ds = append(ds, config.Diagnostics(err)...)
			}
		}
	}
	if len(ds) == 0 {
		ds = config.Diagnostics(cfg.Validate())
	}
	return cfg, ds
}

// blame shows diagnostics inline on the fields they name, for steps up to
// last; it returns the first step with a problem and whether any was found.
func (f *Flow) blame(ds []config.Diagnostic, last Step) (Step, bool) {
	first, found := last, false
	for _, d := range ds {
		st, ok := stepOf(d.Key)
		if ok && stepIndex(st) > stepIndex(last) {
			continue
		}
		msg := d.Key + ": " + d.Problem
		if d.Valid != "" {
			msg += " (valid: " + d.Valid + ")"
		}
		if ok {
			f.fields[d.Key].err = msg
		} else {
			st = last
			f.stepErr = msg
		}
		if !found || stepIndex(st) < stepIndex(first) {
			first = st
		}
		found = true
	}
	return first, found
}

func stepIndex(s Step) int {
	for i, st := range formSteps {
		if st == s {
			return i
		}
	}
	return len(formSteps)
}

// validateThrough checks every step up to last; on a problem it moves to
// the first field that has one.
func (f *Flow) validateThrough(last Step) bool {
	f.stepErr = ""
	for _, fl := range f.fields {
		if fl.err != "" && fl.draft == fl.value {
			fl.err = ""
		}
	}
	_, ds := f.build()
	st, bad := f.blame(ds, last)
	if !bad {
		return true
	}
	f.goTo(st)
	for i, fl := range f.visible() {
		if fl.err != "" {
			f.focus = i
			break
		}
	}
	return false
}

func (f *Flow) goTo(st Step) {
	f.step, f.focus, f.scroll = st, 0, 0
}

// clampFocus keeps the focus on a shown field after a choice hid some.
func (f *Flow) clampFocus() {
	if n := len(f.visible()); f.focus >= n {
		f.focus = max(0, n-1)
	}
}
