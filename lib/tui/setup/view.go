package setup

import (
	"regexp"
	"strings"

	"github.com/josecorral/fluzo/lib/config"
)

// FieldView is one field as the screen draws it.
type FieldView struct {
	Key, Label string
	Value      string // the draft, or a mask for a reference that is not a name
	Meta       string // unit, valid range and default
	Help       string // the registry's description
	Error      string
	Focused    bool
	Choice     bool // Left/Right change it (enum, bool, a discovered model)
	Masked     bool
}

// View is everything the current screen shows, already in words.
type View struct {
	Step   Step
	Title  string
	Index  int // 1-based position among the form steps; 0 elsewhere
	Count  int
	Notes  []string
	Fields []FieldView
	Lines  []string // summary, review, diagnosis or result
	Scroll int
	Status string // model discovery
	Error  string
	Prompt string // the yes/no question
	Keys   []KeyHint
}

// KeyHint is one footer entry.
type KeyHint struct{ Key, Action string }

// referenceNames is what each reference looks like (an environment
// variable name, an auth.toml entry name); anything else in a reference
// field, or anything as long as a key, is masked: it may be a pasted
// secret.
var referenceNames = map[string]*regexp.Regexp{
	"models.coder.api_key_env":    regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`),
	"models.coder.credential_ref": regexp.MustCompile(`^[A-Za-z0-9_-]+$`),
}

const maxShownReference = 48

func looksLikeName(key, v string) bool {
	re, ok := referenceNames[key]
	return ok && len(v) <= maxShownReference && re.MatchString(v)
}

// View describes the current screen.
func (f *Flow) View() View {
	v := View{Step: f.step, Title: f.step.Title(), Error: f.stepErr, Scroll: f.scroll}
	if i := stepIndex(f.step); i < len(formSteps) {
		v.Index, v.Count = i+1, len(formSteps)
		v.Notes = stepNotes[f.step]
		for i, fl := range f.visible() {
			v.Fields = append(v.Fields, f.fieldView(fl, i == f.focus))
		}
		if f.step == StepEndpoint {
			v.Status = f.discovery
			if len(f.models) > 0 {
				v.Lines = []string{"Models: " + strings.Join(f.models, ", ")}
			}
		}
		v.Keys = formKeys(f.step)
		return v
	}
	switch f.step {
	case StepWelcome:
		v.Lines = f.welcomeLines()
		v.Keys = []KeyHint{{"enter", "begin"}, {"ctrl+s", "summary with defaults"}, {"esc", "leave"}}
	case StepSummary:
		v.Lines = f.summaryLines()
		v.Prompt = "Write this .fluzo? [y/n]"
		v.Keys = []KeyHint{{"y", "write .fluzo"}, {"n/esc", "back to edit"}, {"pgup/pgdn", "scroll"}, {"ctrl+c", "leave"}}
	case StepExclude:
		v.Lines = []string{"Wrote " + f.env.Path + noteSuffix(f.writeNote), "",
			"Fluzo keeps sessions, artifacts and telemetry in .fluzodrive/ beside it. Adding /.fluzodrive/ to .git/info/exclude keeps them out of git status without touching a tracked file. It is your decision."}
		v.Prompt = "Add /.fluzodrive/ to .git/info/exclude? [y/n]"
		v.Keys = []KeyHint{{"y", "add"}, {"n", "do not add"}}
	case StepConsent:
		v.Lines = append(append([]string{"The agent contacts these destinations only with your consent:"}, f.review.Lines...), cleartextWarnings(f.review.Cleartext)...)
		v.Prompt = "Record consent for this workspace and configuration? [y/n]"
		v.Keys = []KeyHint{{"y", "record consent"}, {"n", "not now"}}
	case StepDone:
		v.Lines = f.doneLines()
		v.Keys = []KeyHint{{"enter", "open Fluzo"}, {"q", "quit"}}
		if f.env.Init {
			v.Keys = []KeyHint{{"enter", "close"}}
		}
	case StepReplace:
		v.Lines = []string{f.env.Path + " exists and is valid.", "",
			"Setup can replace it: an exact backup of the current file is kept under .fluzodrive/backups, and the flow starts from its values.",
			"Single settings change without replacing anything: fluzo-admit config set KEY VALUE"}
		v.Prompt = "Replace it? [y/n]"
		v.Keys = []KeyHint{{"y", "set up again"}, {"n", "keep it and leave"}}
	case StepDiagnosis:
		v.Lines = f.diagnosisLines()
		v.Keys = []KeyHint{{"q", "quit"}, {"up/down", "scroll"}}
	}
	return v
}

func noteSuffix(note string) string {
	if note == "" {
		return ""
	}
	return " (" + note + ")"
}

func cleartextWarnings(urls []string) []string {
	var out []string
	for _, u := range urls {
		out = append(out, "", "WARNING: "+u+" is plain HTTP to a host that is not loopback: code, conversation and any credential travel in cleartext. Consenting accepts this exception for it.")
	}
	return out
}

func (f *Flow) fieldView(fl *field, focused bool) FieldView {
	s := fl.setting
	meta := s.ValidRange() + "; default " + fl.def
	if s.Unit != "" {
		meta = s.Unit + "; " + meta
	}
	fv := FieldView{Key: fl.spec.key, Label: fl.spec.label, Value: fl.draft, Meta: meta, Help: s.Description,
		Error: fl.err, Focused: focused,
		Choice: !f.isText(fl) || fl.spec.key == "models.coder.model" && len(f.models) > 0}
	if s.Privacy == config.PrivacyReference && fl.draft != "" && !looksLikeName(fl.spec.key, fl.draft) {
		fv.Value, fv.Masked = "(hidden: not a name; a reference is the NAME, never the key)", true
	}
	return fv
}

func formKeys(st Step) []KeyHint {
	keys := []KeyHint{{"enter", "next"}, {"tab", "field"}, {"←/→", "choose"}, {"esc", "back"}}
	if st == StepEndpoint {
		keys = append(keys, KeyHint{"ctrl+d", "list models"})
	}
	keys = append(keys, KeyHint{"ctrl+s", "summary"})
	return keys
}

func (f *Flow) welcomeLines() []string {
	intro := "There is no .fluzo here yet: this setup writes one, offline."
	if f.env.Existing != nil {
		intro = "This setup replaces the .fluzo here, offline, starting from its values; an exact backup is kept."
	}
	return []string{
		"Fluzo runs a coding agent on this workspace with a model you choose. " + intro,
		"",
		"It asks for the model endpoint, the context and slots it serves, task limits, telemetry and the optional Laya observer, then shows a redacted summary before anything is written to",
		"  " + f.env.Path,
		"",
		"Nothing is contacted during setup unless you ask to list the models. To try Fluzo without a model first, leave and run: fluzo demo",
	}
}

func (f *Flow) doneLines() []string {
	lines := []string{"Wrote " + f.env.Path + noteSuffix(f.writeNote)}
	if f.excludeNote != "" {
		lines = append(lines, "Git exclusion: "+f.excludeNote)
	}
	if f.consentNote != "" {
		lines = append(lines, "Consent: "+f.consentNote)
	}
	return append(lines, "",
		"Check it any time with: fluzo-admit config validate",
		"Change one setting with: fluzo-admit config set KEY VALUE")
}

func (f *Flow) diagnosisLines() []string {
	lines := []string{"Fluzo did not start: " + f.env.Path + " cannot be used as it is.",
		"The file was not changed and will not be overwritten.", ""}
	for _, d := range f.env.Problems {
		lines = append(lines, "  "+d.String())
	}
	return append(lines, "",
		"Fix each line in an editor (the key and the valid values are named above), then check it with: fluzo-admit config validate",
		"To start over instead, move the file away and run: fluzo init")
}
