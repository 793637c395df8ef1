package setup

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/josecorral/fluzo/lib/config"
)

// KeyCode is a key as the flow sees it; the caller maps terminal keys.
type KeyCode uint8

const (
	KeyRune      KeyCode = iota + 1
	KeyEnter             // continue; the summary's confirmation
	KeyEsc               // revert the draft, else back (or leave)
	KeyTab               // next field
	KeyBacktab           // previous field
	KeyUp                // previous field; summary: scroll
	KeyDown              // next field; summary: scroll
	KeyLeft              // previous choice
	KeyRight             // next choice
	KeyBackspace         // delete the last character
	KeyClear             // Ctrl+U: empty the field
	KeyDiscover          // Ctrl+D: list the endpoint's models
	KeySummary           // Ctrl+S: the summary; on it, confirm
	KeyQuit              // Ctrl+C / Ctrl+Q: leave without writing more
	KeyPgUp
	KeyPgDn
)

// Key is one key press.
type Key struct {
	Code KeyCode
	Rune rune
}

// Handle applies one key press and returns work for the caller.
func (f *Flow) Handle(k Key) Effect {
	if f.finished {
		return Effect{}
	}
	if k.Code == KeyQuit {
		f.finish(false)
		return Effect{}
	}
	switch f.step {
	case StepWelcome:
		f.welcomeKey(k)
	case StepSummary:
		f.summaryKey(k)
	case StepExclude, StepConsent, StepReplace:
		f.questionKey(k)
	case StepDone, StepDiagnosis:
		f.closingKey(k)
	default:
		return f.formKey(k)
	}
	return Effect{}
}

// scrollKey pages a screen of text; it reports whether k was one.
func (f *Flow) scrollKey(k Key) bool {
	switch k.Code {
	case KeyUp, KeyPgUp:
		f.scroll = max(0, f.scroll-scrollStep(k))
	case KeyDown, KeyPgDn:
		f.scroll += scrollStep(k)
	default:
		return false
	}
	return true
}

func (f *Flow) welcomeKey(k Key) {
	if f.scrollKey(k) {
		return
	}
	switch k.Code {
	case KeyEnter:
		f.goTo(StepEndpoint)
	case KeySummary:
		f.toSummary()
	case KeyEsc:
		f.finish(false)
	}
}

func (f *Flow) closingKey(k Key) {
	switch {
	case k.Code == KeyEnter && f.step == StepDone && !f.env.Init:
		f.finish(true)
	case k.Code == KeyEnter, k.Code == KeyEsc, k.Code == KeyRune && (k.Rune == 'q' || k.Rune == 'Q'):
		f.finish(false)
	default:
		f.scrollKey(k)
	}
}

func scrollStep(k Key) int {
	if k.Code == KeyPgUp || k.Code == KeyPgDn {
		return 10
	}
	return 1
}

func (f *Flow) formKey(k Key) Effect {
	fl := f.current()
	switch k.Code {
	case KeyEnter:
		if !f.commit() {
			return Effect{}
		}
		if f.focus < len(f.visible())-1 {
			f.focus++
			return Effect{}
		}
		f.advance()
	case KeyTab, KeyDown:
		if f.commit() && f.focus < len(f.visible())-1 {
			f.focus++
		}
	case KeyBacktab, KeyUp:
		if f.commit() && f.focus > 0 {
			f.focus--
		}
	case KeyEsc:
		if fl != nil && fl.draft != fl.value {
			fl.draft, fl.err = fl.value, ""
			return Effect{}
		}
		f.back()
	case KeySummary:
		if f.commit() {
			f.toSummary()
		}
	case KeyDiscover:
		return f.discover()
	case KeyLeft, KeyRight:
		f.choose(fl, k.Code == KeyRight)
	case KeyBackspace:
		if fl != nil && f.isText(fl) && fl.draft != "" {
			_, n := utf8.DecodeLastRuneInString(fl.draft)
			f.edit(fl, fl.draft[:len(fl.draft)-n])
		}
	case KeyClear:
		if fl != nil && f.isText(fl) {
			f.edit(fl, "")
		}
	case KeyRune:
		f.typeRune(fl, k.Rune)
	}
	return Effect{}
}

func (f *Flow) typeRune(fl *field, r rune) {
	if fl == nil {
		return
	}
	if !f.isText(fl) {
		if r == ' ' {
			f.choose(fl, true)
		}
		return
	}
	if unicode.IsControl(r) || len(fl.draft)+utf8.RuneLen(r) > maxFieldBytes {
		return
	}
	f.edit(fl, fl.draft+string(r))
}

// Paste inserts text into the focused text field, on one line. A paste
// never moves on, confirms or answers a question.
func (f *Flow) Paste(text string) {
	fl := f.current()
	if f.finished || fl == nil || !f.isText(fl) || stepIndex(f.step) == len(formSteps) {
		return
	}
	var b strings.Builder
	for _, r := range text {
		if !unicode.IsControl(r) && b.Len()+len(fl.draft)+utf8.RuneLen(r) <= maxFieldBytes {
			b.WriteRune(r)
		}
	}
	f.edit(fl, fl.draft+b.String())
}

func (f *Flow) edit(fl *field, draft string) {
	fl.draft = draft
	if fl.spec.key == "models.coder.base_url" && draft != fl.value {
		// An answer for the old URL must never fill in a model for the new.
		f.forgetModels()
	}
}

// choose steps an enum or flips a bool; on the model id it walks the
// discovered models.
func (f *Flow) choose(fl *field, next bool) {
	if fl == nil {
		return
	}
	var opts []string
	switch {
	case fl.setting.Kind == config.KindBool:
		opts = []string{"false", "true"}
	case fl.setting.Kind == config.KindEnum:
		opts = fl.setting.Options
	case fl.spec.key == "models.coder.model" && len(f.models) > 0:
		opts = f.models
	default:
		return
	}
	i := indexOf(opts, fl.draft)
	switch {
	case i < 0:
		i = 0
	case next:
		i = (i + 1) % len(opts)
	default:
		i = (i + len(opts) - 1) % len(opts)
	}
	fl.draft, fl.value, fl.err = opts[i], opts[i], ""
	f.clampFocus()
}

func indexOf(xs []string, x string) int {
	for i, s := range xs {
		if s == x {
			return i
		}
	}
	return -1
}

// advance validates the step (with everything before it) and moves on.
func (f *Flow) advance() {
	if !f.validateThrough(f.step) {
		return
	}
	i := stepIndex(f.step)
	if i+1 < len(formSteps) {
		f.goTo(formSteps[i+1])
		return
	}
	f.toSummary()
}

func (f *Flow) back() {
	i := stepIndex(f.step)
	if i == 0 {
		f.goTo(StepWelcome)
		return
	}
	f.goTo(formSteps[i-1])
}

// discover asks for the model list of the entered endpoint, only when
// its URL and credential reference are valid.
func (f *Flow) discover() Effect {
	if f.step != StepEndpoint || !f.commit() {
		return Effect{}
	}
	cfg, ds := f.build()
	for _, d := range ds {
		if st, ok := stepOf(d.Key); ok && st == StepEndpoint && d.Key != "models.coder.model" {
			f.blame([]config.Diagnostic{d}, StepEndpoint)
			f.discovery = "fix the endpoint first; nothing was contacted"
			return Effect{}
		}
	}
	if u := f.text("models.coder.base_url"); f.env.Cleartext != nil && f.env.Cleartext(u) && f.warnedHTTP != u {
		f.warnedHTTP = u
		attached := "no API key is attached"
		if f.text("models.coder.auth") != config.AuthNone {
			attached = "the API key " + f.keyReference()[len("from "):] + " would travel with it"
		}
		f.discovery = "WARNING: " + displayURL(u) + " is plain HTTP to a host that is not loopback: the request travels in cleartext and " + attached + ". Ctrl+D again lists anyway (this URL, this run only)."
		return Effect{}
	}
	f.gen++
	f.models, f.discovering = nil, true
	f.discovery = "listing models at " + displayURL(f.text("models.coder.base_url")) + " ..."
	return Effect{Discover: &DiscoverRequest{Gen: f.gen, Config: cfg}}
}

// Discovered takes the answer to a DiscoverRequest. A stale answer (the
// URL changed since) is dropped.
func (f *Flow) Discovered(gen int, models []string, err error) {
	if gen != f.gen || !f.discovering {
		return
	}
	f.discovering = false
	if err != nil {
		f.discovery = "could not list models: " + errorText(err)
		return
	}
	f.models = models
	if len(models) == 0 {
		f.discovery = "the endpoint lists no models; type the model id"
		return
	}
	f.discovery = plural(len(models), "model") + " listed; Left/Right on Model id picks one"
	if fl := f.fields["models.coder.model"]; indexOf(models, fl.value) < 0 {
		fl.draft, fl.value, fl.err = models[0], models[0], ""
	}
}

func plural(n int, noun string) string {
	s := itoa(n) + " " + noun
	if n != 1 {
		s += "s"
	}
	return s
}

func itoa(n int) string { return config.FormatValue(int64(n)) }
