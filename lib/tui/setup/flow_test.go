package setup

import (
	"errors"
	"strings"
	"testing"

	"github.com/josecorral/fluzo/lib/config"
	"github.com/josecorral/fluzo/lib/core"
)

// fakeSeam records what the flow asked for.
type fakeSeam struct {
	written   [][]byte
	replace   bool
	writeErr  error
	excluded  int
	consented [][]string
	review    Review
}

func (s *fakeSeam) Write(data []byte, replace bool) (string, error) {
	if s.writeErr != nil {
		return "", s.writeErr
	}
	s.written, s.replace = append(s.written, data), replace
	return "", nil
}
func (s *fakeSeam) Exclude() (string, error) { s.excluded++; return "added to .git/info/exclude", nil }
func (s *fakeSeam) Review() (Review, error)  { return s.review, nil }
func (s *fakeSeam) Consent(allow []string) (string, error) {
	s.consented = append(s.consented, allow)
	return "recorded", nil
}

func newFlow(t *testing.T) (*Flow, *fakeSeam) {
	t.Helper()
	s := &fakeSeam{review: Review{Lines: []string{"  model http://127.0.0.1:8080/v1 (loopback)"}}}
	return New(Env{Path: "/ws/.fluzo", Workspace: "/ws"}, s), s
}

func press(f *Flow, keys ...Key) (effects []Effect) {
	for _, k := range keys {
		if e := f.Handle(k); e.Discover != nil {
			effects = append(effects, e)
		}
	}
	return effects
}

func typeText(f *Flow, s string) {
	for _, r := range s {
		f.Handle(Key{Code: KeyRune, Rune: r})
	}
}

var (
	enter   = Key{Code: KeyEnter}
	esc     = Key{Code: KeyEsc}
	tab     = Key{Code: KeyTab}
	right   = Key{Code: KeyRight}
	clear   = Key{Code: KeyClear}
	summary = Key{Code: KeySummary}
	yes     = Key{Code: KeyRune, Rune: 'y'}
	no      = Key{Code: KeyRune, Rune: 'n'}
)

// focusKey moves the focus to key on the current step.
func focusKey(t *testing.T, f *Flow, key string) {
	t.Helper()
	if !f.commit() {
		t.Fatalf("the focused field does not commit: %+v", f.current())
	}
	for i, fl := range f.visible() {
		if fl.spec.key == key {
			f.focus = i
			return
		}
	}
	t.Fatalf("%s is not shown on %s", key, f.step.Title())
}

func fieldOf(f *Flow, key string) FieldView {
	for _, fv := range f.View().Fields {
		if fv.Key == key {
			return fv
		}
	}
	return FieldView{}
}

func TestEveryFieldIsARegistryKey(t *testing.T) {
	for _, k := range allFormKeys() {
		if _, ok := config.Lookup(k); !ok {
			t.Errorf("%s is not a registry key", k)
		}
	}
}

// Each field rejects an invalid value inline with its key and valid
// range, keeps the prior value, and keeps the focus where it was.
func TestInvalidValueIsShownInlineAndThePriorValueKept(t *testing.T) {
	bad := map[string]string{
		"models.coder.context_window":               "12",
		"models.coder.max_output_tokens":            "lots",
		"models.coder.max_in_flight":                "0",
		"capacity_pools.local_server.max_in_flight": "2000",
		"harness.max_turns":                         "-1",
		"harness.max_active_seconds":                "1.5",
		"harness.max_total_tokens":                  "10",
		"tui.animation_fps":                         "61",
	}
	for key, text := range bad {
		t.Run(key, func(t *testing.T) {
			f, _ := newFlow(t)
			st, _ := stepOf(key)
			f.goTo(st)
			focusKey(t, f, key)
			prior := f.Value(key)
			press(f, clear)
			typeText(f, text)
			press(f, enter)
			fv := fieldOf(f, key)
			s, _ := config.Lookup(key)
			if !strings.Contains(fv.Error, key) || !strings.Contains(fv.Error, s.ValidRange()) {
				t.Fatalf("error %q names neither %s nor %q", fv.Error, key, s.ValidRange())
			}
			if f.Value(key) != prior || !fv.Focused || f.Step() != st {
				t.Fatalf("value %q (want %q), focused %v, step %v", f.Value(key), prior, fv.Focused, f.Step())
			}
			press(f, esc) // reverts the draft to the prior value
			if fv := fieldOf(f, key); fv.Value != prior || fv.Error != "" {
				t.Fatalf("after Esc: %q %q", fv.Value, fv.Error)
			}
		})
	}
}

// Values valid alone but not together are caught on leaving the step,
// by the registry's own cross-field check, on the key it names.
func TestCombinationErrorStaysOnItsStep(t *testing.T) {
	f, _ := newFlow(t)
	f.goTo(StepLimits)
	focusKey(t, f, "models.coder.max_output_tokens")
	press(f, clear)
	typeText(f, "40000") // more than the 32768 context window
	for f.Step() == StepLimits && f.focus < len(f.visible())-1 {
		press(f, enter)
	}
	press(f, enter)
	if f.Step() != StepLimits {
		t.Fatalf("moved on to %v with an output reserve above the context window", f.Step())
	}
	if fv := fieldOf(f, "models.coder.max_output_tokens"); !strings.Contains(fv.Error, "context window") || !fv.Focused {
		t.Fatalf("field view %+v", fv)
	}
}

func TestBaseURLIsCheckedByTheRegistry(t *testing.T) {
	f, _ := newFlow(t)
	press(f, enter) // welcome
	focusKey(t, f, "models.coder.base_url")
	press(f, clear)
	typeText(f, "ftp://models.invalid/v1")
	for i := 0; i < 10 && f.Step() == StepEndpoint && fieldOf(f, "models.coder.base_url").Error == ""; i++ {
		press(f, enter)
	}
	if f.Step() != StepEndpoint || !strings.Contains(fieldOf(f, "models.coder.base_url").Error, `scheme "ftp"`) {
		t.Fatalf("step %v, %+v", f.Step(), fieldOf(f, "models.coder.base_url"))
	}
}

// walk takes the flow from the welcome screen to the summary with the
// defaults, plus edit applied on the endpoint step.
func walk(t *testing.T, f *Flow, edit func()) {
	t.Helper()
	press(f, enter)
	if edit != nil {
		edit()
	}
	for i := 0; i < 60 && f.Step() != StepSummary; i++ {
		press(f, enter)
	}
	if f.Step() != StepSummary {
		t.Fatalf("stuck on %v: %+v %q", f.Step(), f.View().Fields, f.stepErr)
	}
}

func TestTheWrittenFileIsValidAndHoldsTheEnteredValues(t *testing.T) {
	f, s := newFlow(t)
	walk(t, f, func() {
		focusKey(t, f, "models.coder.base_url")
		press(f, clear)
		typeText(f, "http://127.0.0.1:9999/v1")
		focusKey(t, f, "models.coder.model")
		press(f, clear)
		typeText(f, "sim")
	})
	press(f, enter) // Enter never writes
	if len(s.written) != 0 {
		t.Fatal("Enter on the summary wrote the file")
	}
	press(f, yes)
	if len(s.written) != 1 || s.replace {
		t.Fatalf("writes %d, replace %v", len(s.written), s.replace)
	}
	cfg, err := config.Parse(s.written[0], "/ws/.fluzo")
	if err != nil {
		t.Fatalf("written file does not validate: %v\n%s", err, s.written[0])
	}
	if cfg.String("models.coder.base_url") != "http://127.0.0.1:9999/v1" || cfg.String("models.coder.model") != "sim" ||
		cfg.String("project.name") != "ws" || cfg.Int("schema_version") != 1 {
		t.Fatalf("values not written: %s", s.written[0])
	}
	if f.Step() != StepExclude {
		t.Fatalf("after writing: %v", f.Step())
	}
	press(f, enter) // Enter never answers a yes/no question
	if f.Step() != StepExclude || s.excluded != 0 {
		t.Fatal("Enter answered the exclude question")
	}
	press(f, yes)
	if s.excluded != 1 || f.Step() != StepConsent {
		t.Fatalf("excluded %d, step %v", s.excluded, f.Step())
	}
	press(f, yes)
	if len(s.consented) != 1 || f.Step() != StepDone {
		t.Fatalf("consent %v, step %v", s.consented, f.Step())
	}
	press(f, enter)
	if out, done := f.Finished(); !done || !out.Written || !out.Open {
		t.Fatalf("outcome %+v %v", out, done)
	}
}

func TestDecliningExclusionAndConsentDoesNeither(t *testing.T) {
	f, s := newFlow(t)
	walk(t, f, nil)
	press(f, yes, no, no)
	if s.excluded != 0 || len(s.consented) != 0 || f.Step() != StepDone {
		t.Fatalf("excluded %d consented %v step %v", s.excluded, s.consented, f.Step())
	}
	if !strings.Contains(strings.Join(f.View().Lines, "\n"), "fluzo-admit consent grant") {
		t.Fatalf("the done screen does not say how to consent later: %q", f.View().Lines)
	}
}

func TestAPlainHTTPExceptionIsPassedToConsent(t *testing.T) {
	f, s := newFlow(t)
	s.review.Cleartext = []string{"http://10.0.0.5:8080/v1"}
	walk(t, f, nil)
	press(f, yes, no)
	if !strings.Contains(strings.Join(f.View().Lines, "\n"), "WARNING: http://10.0.0.5:8080/v1 is plain HTTP") {
		t.Fatalf("no warning: %q", f.View().Lines)
	}
	press(f, yes)
	if len(s.consented) != 1 || len(s.consented[0]) != 1 || s.consented[0][0] != "http://10.0.0.5:8080/v1" {
		t.Fatalf("consented %v", s.consented)
	}
}

const sentinel = "sk-live-SENTINEL-7f3a9c"

// A key typed (or pasted) where its reference belongs is masked, refused,
// and never reaches the summary or a file.
func TestASecretIsNeverShownSummarisedOrWritten(t *testing.T) {
	f, s := newFlow(t)
	press(f, enter)
	focusKey(t, f, "models.coder.auth")
	press(f, right) // env
	if f.Value("models.coder.auth") != config.AuthEnv {
		t.Fatalf("auth %q", f.Value("models.coder.auth"))
	}
	focusKey(t, f, "models.coder.api_key_env")
	f.Paste(sentinel)
	fv := fieldOf(f, "models.coder.api_key_env")
	if !fv.Masked || strings.Contains(fv.Value, "SENTINEL") {
		t.Fatalf("the pasted key is on screen: %+v", fv)
	}
	press(f, summary)
	for i := 0; i < 10 && f.Step() != StepSummary; i++ {
		press(f, enter)
	}
	if f.Step() == StepSummary {
		t.Fatal("a literal key reached the summary")
	}
	if fv := fieldOf(f, "models.coder.api_key_env"); !strings.Contains(fv.Error, "literal credentials are not allowed") || strings.Contains(fv.Error, "SENTINEL") {
		t.Fatalf("error %q", fv.Error)
	}
	if strings.Contains(viewText(f.View()), "SENTINEL") {
		t.Fatal("the key is in the view")
	}
	press(f, clear)
	typeText(f, "OPENAI_API_KEY")
	press(f, summary)
	if f.Step() != StepSummary {
		t.Fatalf("step %v: %+v", f.Step(), f.View().Fields)
	}
	sum := viewText(f.View())
	if !strings.Contains(sum, "environment variable OPENAI_API_KEY (its value is not shown or written)") || strings.Contains(sum, "SENTINEL") {
		t.Fatalf("summary %s", sum)
	}
	press(f, yes)
	if len(s.written) != 1 || strings.Contains(string(s.written[0]), "SENTINEL") ||
		!strings.Contains(string(s.written[0]), `api_key_env = "OPENAI_API_KEY"`) {
		t.Fatalf("written %s", s.written)
	}
}

func viewText(v View) string {
	var b strings.Builder
	for _, fv := range v.Fields {
		b.WriteString(fv.Value + "\n" + fv.Error + "\n")
	}
	b.WriteString(strings.Join(v.Lines, "\n") + v.Status + v.Error)
	return b.String()
}

// Model discovery is an explicit request: no key but Ctrl+D produces one.
func TestDiscoveryOnlyOnRequest(t *testing.T) {
	f, _ := newFlow(t)
	var effects []Effect
	effects = append(effects, press(f, enter)...)
	typeText(f, "abc")
	effects = append(effects, press(f, tab, tab, right, Key{Code: KeyLeft}, esc, enter)...)
	walk(t, f, nil)
	if len(effects) != 0 {
		t.Fatalf("requests without asking: %+v", effects)
	}
	f2, _ := newFlow(t)
	press(f2, enter)
	effects = press(f2, Key{Code: KeyDiscover})
	if len(effects) != 1 || effects[0].Discover.Config.String("models.coder.base_url") != "http://127.0.0.1:8080/v1" {
		t.Fatalf("effects %+v", effects)
	}
	f2.Discovered(effects[0].Discover.Gen, []string{"alpha", "beta"}, nil)
	if f2.Value("models.coder.model") != "alpha" {
		t.Fatalf("model %q", f2.Value("models.coder.model"))
	}
	focusKey(t, f2, "models.coder.model")
	press(f2, right)
	if f2.Value("models.coder.model") != "beta" {
		t.Fatalf("right picked %q", f2.Value("models.coder.model"))
	}
}

func TestAStaleDiscoveryAnswerIsDropped(t *testing.T) {
	f, _ := newFlow(t)
	press(f, enter)
	effects := press(f, Key{Code: KeyDiscover})
	focusKey(t, f, "models.coder.base_url")
	typeText(f, "x") // the URL changes while the request runs
	f.Discovered(effects[0].Discover.Gen, []string{"other"}, nil)
	if f.Value("models.coder.model") == "other" || len(f.models) != 0 {
		t.Fatal("an answer for the old URL filled in the model")
	}
}

func TestDiscoveryFailureIsShownAndNothingChanges(t *testing.T) {
	f, _ := newFlow(t)
	press(f, enter)
	e := press(f, Key{Code: KeyDiscover})
	f.Discovered(e[0].Discover.Gen, nil, core.Errorf(core.CodeProviderError, "connection refused").WithHint("start the server"))
	if st := f.View().Status; !strings.Contains(st, "connection refused; start the server") {
		t.Fatalf("status %q", st)
	}
	if f.Value("models.coder.model") != "flash-halogen" {
		t.Fatal("the model changed")
	}
}

func TestDiscoveryNeedsAValidURL(t *testing.T) {
	f, _ := newFlow(t)
	press(f, enter)
	focusKey(t, f, "models.coder.base_url")
	press(f, clear)
	typeText(f, "not a url")
	press(f, enter)
	if e := press(f, Key{Code: KeyDiscover}); len(e) != 0 {
		t.Fatal("discovery of an invalid URL")
	}
}

func TestAFailedWriteStaysOnTheSummary(t *testing.T) {
	f, s := newFlow(t)
	s.writeErr = core.Errorf(core.CodeConfirmationRequired, "/ws/.fluzo already exists").WithHint("run fluzo init to replace it")
	walk(t, f, nil)
	press(f, yes)
	if f.Step() != StepSummary || !strings.Contains(f.View().Error, "nothing was written: /ws/.fluzo already exists") {
		t.Fatalf("step %v error %q", f.Step(), f.View().Error)
	}
	if out, _ := f.Finished(); out.Written {
		t.Fatal("reported written")
	}
}

func TestQuitWritesNothing(t *testing.T) {
	f, s := newFlow(t)
	walk(t, f, nil)
	press(f, Key{Code: KeyQuit})
	if out, done := f.Finished(); !done || out.Written || len(s.written) != 0 {
		t.Fatalf("outcome %+v, writes %d", out, len(s.written))
	}
}

func TestReplacingAskFirstAndStartsFromTheFile(t *testing.T) {
	old, err := config.Parse([]byte("schema_version = 1\n[harness]\nmax_turns = 7\n"), "/ws/.fluzo")
	if err != nil {
		t.Fatal(err)
	}
	s := &fakeSeam{}
	f := New(Env{Path: "/ws/.fluzo", Workspace: "/ws", Existing: old, Init: true}, s)
	if f.Step() != StepReplace {
		t.Fatalf("step %v", f.Step())
	}
	press(f, enter)
	if f.Step() != StepReplace {
		t.Fatal("Enter answered the replace question")
	}
	press(f, yes)
	if f.Value("harness.max_turns") != "7" {
		t.Fatalf("max_turns %q", f.Value("harness.max_turns"))
	}
	walk(t, f, nil)
	press(f, summary)
	if len(s.written) != 1 || !s.replace {
		t.Fatalf("writes %d replace %v", len(s.written), s.replace)
	}
	f2 := New(Env{Path: "/ws/.fluzo", Existing: old, Init: true}, s)
	press(f2, no)
	if out, done := f2.Finished(); !done || out.Written {
		t.Fatalf("%+v %v", out, done)
	}
}

func TestAMalformedFileIsOnlyDiagnosed(t *testing.T) {
	_, err := config.Parse([]byte("schema_version = 1\n[harness]\nmax_turns = 0\n"), "/ws/.fluzo")
	ds := config.Diagnostics(err)
	if len(ds) == 0 {
		t.Fatal("no diagnostics")
	}
	s := &fakeSeam{}
	f := New(Env{Path: "/ws/.fluzo", Problems: ds}, s)
	text := strings.Join(f.View().Lines, "\n")
	if !strings.Contains(text, "/ws/.fluzo:3: harness.max_turns:") || !strings.Contains(text, "not changed") {
		t.Fatalf("diagnosis %s", text)
	}
	press(f, enter, summary, yes)
	if out, done := f.Finished(); !done || out.Written || len(s.written) != 0 {
		t.Fatalf("%+v %v %d", out, done, len(s.written))
	}
}

func TestPasteNeverConfirms(t *testing.T) {
	f, s := newFlow(t)
	walk(t, f, nil)
	f.Paste("y\r\n")
	press(f, enter)
	if f.Step() != StepSummary || len(s.written) != 0 {
		t.Fatalf("a paste or Enter wrote the file: step %v", f.Step())
	}
	press(f, yes)
	f.Paste("y\r\n")
	press(f, enter, Key{Code: KeyRune, Rune: 'x'})
	f.Paste("yes")
	if f.Step() != StepExclude || s.excluded != 0 {
		t.Fatalf("a paste answered: step %v excluded %d", f.Step(), s.excluded)
	}
}

func TestChoicesToggleAndRevealTheirFields(t *testing.T) {
	f, _ := newFlow(t)
	f.goTo(StepTelemetry)
	if fieldOf(f, "telemetry.otlp_endpoint").Key != "" {
		t.Fatal("the OTLP endpoint shows while export is off")
	}
	focusKey(t, f, "telemetry.export_enabled")
	press(f, Key{Code: KeyRune, Rune: ' '})
	if f.Value("telemetry.export_enabled") != "true" || fieldOf(f, "telemetry.otlp_endpoint").Key == "" {
		t.Fatal("turning export on did not show its endpoint")
	}
}

func TestErrorTextUsesMessageAndHint(t *testing.T) {
	if got := errorText(errors.New("plain")); got != "plain" {
		t.Fatal(got)
	}
}

// A plain-HTTP endpoint that is not loopback is listed only after its
// warning and a second, explicit request; editing the URL withdraws it.
func TestCleartextDiscoveryNeedsASecondRequest(t *testing.T) {
	s := &fakeSeam{}
	f := New(Env{Path: "/ws/.fluzo", Cleartext: func(u string) bool { return strings.HasPrefix(u, "http://10.") }}, s)
	press(f, enter)
	focusKey(t, f, "models.coder.base_url")
	press(f, clear)
	typeText(f, "http://10.0.0.5:8080/v1")
	if e := press(f, Key{Code: KeyDiscover}); len(e) != 0 || !strings.Contains(f.View().Status, "WARNING: http://10.0.0.5:8080/v1 is plain HTTP") {
		t.Fatalf("effects %v status %q", e, f.View().Status)
	}
	if !strings.Contains(f.View().Status, "no API key is attached") {
		t.Fatalf("status %q", f.View().Status)
	}
	typeText(f, "0") // a new URL: the warning no longer applies
	press(f, Key{Code: KeyBackspace})
	if e := press(f, Key{Code: KeyDiscover}); len(e) != 0 {
		t.Fatal("an edit kept the acceptance")
	}
	if e := press(f, Key{Code: KeyDiscover}); len(e) != 1 {
		t.Fatal("the second request after the warning was not sent")
	}
}
