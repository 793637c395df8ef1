package tui

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"
	"github.com/josecorral/fluzo/lib/config"
	"github.com/josecorral/fluzo/lib/tui/setup"
)

// snapSeam answers the flow's side effects without touching anything.
type snapSeam struct{ cleartext []string }

func (snapSeam) Write([]byte, bool) (string, error) { return "", nil }
func (snapSeam) Exclude() (string, error)           { return "added /.fluzodrive/ to .git/info/exclude", nil }
func (s snapSeam) Review() (setup.Review, error) {
	return setup.Review{Lines: []string{"  model        http://127.0.0.1:8080/v1 (loopback) [models.coder.base_url]"}, Cleartext: s.cleartext}, nil
}
func (snapSeam) Consent([]string) (string, error) { return "recorded (sha256:0123abcd)", nil }

type setupHarness struct {
	t   *testing.T
	sv  *setupView
	scr tcell.SimulationScreen
}

func newSetupHarness(t *testing.T, w, h int, o SetupOptions) *setupHarness {
	t.Helper()
	scr := tcell.NewSimulationScreen("UTF-8")
	if err := scr.Init(); err != nil {
		t.Fatal(err)
	}
	scr.SetSize(w, h)
	t.Cleanup(scr.Fini)
	if o.Env.Path == "" {
		o.Env.Path, o.Env.Workspace = "/home/dev/src/wordcount/.fluzo", "/home/dev/src/wordcount"
	}
	if o.Seam == nil {
		o.Seam = snapSeam{}
	}
	return &setupHarness{t: t, sv: newSetupView(o, scr), scr: scr}
}

func (h *setupHarness) keys(ks ...tcell.Event) {
	for _, k := range ks {
		h.sv.input(k)
	}
}

func (h *setupHarness) text() string {
	cells, w, hh := h.scr.GetContents()
	var b strings.Builder
	for y := 0; y < hh; y++ {
		for x := 0; x < w; x++ {
			b.WriteString(string(cells[y*w+x].Runes))
		}
		b.WriteString("\n")
	}
	return b.String()
}

// toStep presses Enter until the flow reaches st.
func (h *setupHarness) toStep(st setup.Step) {
	for i := 0; i < 60 && h.sv.flow.Step() != st; i++ {
		h.keys(key(tcell.KeyEnter))
	}
	if h.sv.flow.Step() != st {
		h.t.Fatalf("stuck on %v", h.sv.flow.Step())
	}
}

func malformedProblems() []config.Diagnostic {
	_, err := config.Parse([]byte("schema_version = 1\n[harness]\nmax_turns = 0\nmax_turn = 3\n"), "/home/dev/src/wordcount/.fluzo")
	return config.Diagnostics(err)
}

var setupScreens = []struct {
	name   string
	opts   SetupOptions
	script func(h *setupHarness)
}{
	{"welcome", SetupOptions{}, func(h *setupHarness) {}},
	{"endpoint", SetupOptions{}, func(h *setupHarness) { h.keys(key(tcell.KeyEnter), key(tcell.KeyTab)) }},
	{"endpoint-models", SetupOptions{}, func(h *setupHarness) {
		h.keys(key(tcell.KeyEnter), key(tcell.KeyCtrlD))
		h.sv.flow.Discovered(1, []string{"flash-halogen", "coder-large"}, nil)
		h.keys(key(tcell.KeyTab), key(tcell.KeyTab))
	}},
	{"limits-error", SetupOptions{}, func(h *setupHarness) {
		h.toStep(setup.StepLimits)
		h.keys(key(tcell.KeyCtrlU))
		h.keys(typed("12")...)
		h.keys(key(tcell.KeyEnter))
	}},
	{"summary", SetupOptions{}, func(h *setupHarness) { h.keys(key(tcell.KeyCtrlS)) }},
	{"consent", SetupOptions{Seam: snapSeam{cleartext: []string{"http://10.0.0.5:8080/v1"}}}, func(h *setupHarness) {
		h.keys(key(tcell.KeyCtrlS), runeKey('y'), runeKey('y'))
	}},
	{"done", SetupOptions{}, func(h *setupHarness) {
		h.keys(key(tcell.KeyCtrlS), runeKey('y'), runeKey('y'), runeKey('y'))
	}},
	{"endpoint-key-masked", SetupOptions{}, func(h *setupHarness) {
		h.keys(key(tcell.KeyEnter), key(tcell.KeyTab), key(tcell.KeyTab), key(tcell.KeyTab), key(tcell.KeyRight), key(tcell.KeyTab))
		h.sv.input(tcell.NewEventPaste(true))
		h.keys(typed("sk-live-NOT-A-NAME")...)
		h.sv.input(tcell.NewEventPaste(false))
		h.keys(key(tcell.KeyCtrlS))
	}},
	{"replace", SetupOptions{Env: setup.Env{Path: "/home/dev/src/wordcount/.fluzo", Existing: config.Defaults(), Init: true}}, func(h *setupHarness) {}},
	{"diagnosis", SetupOptions{Env: setup.Env{Path: "/home/dev/src/wordcount/.fluzo", Problems: malformedProblems()}}, func(h *setupHarness) {}},
}

var setupSizes = [][2]int{{60, 16}, {80, 24}, {120, 40}, {160, 50}}

func TestSetupSnapshots(t *testing.T) {
	for _, sc := range setupScreens {
		for _, sz := range setupSizes {
			for _, vr := range viewVariants {
				name := fmt.Sprintf("setup-%s-%dx%d-%s", sc.name, sz[0], sz[1], vr.name)
				t.Run(name, func(t *testing.T) {
					o := sc.opts
					o.Theme, o.Caps = vr.opts.Theme, vr.opts.Caps
					h := newSetupHarness(t, sz[0], sz[1], o)
					sc.script(h)
					h.sv.draw()
					checkGolden(t, filepath.Join("testdata", "snapshots", name+".txt"), setupSnapshot(h))
				})
			}
		}
	}
}

// setupSnapshot reuses the view snapshot format (text, styles, legend).
func setupSnapshot(h *setupHarness) string {
	return snapshot(&harness{t: h.t, scr: h.scr})
}

// No frame of the masked screen holds the pasted text.
func TestSetupNeverDrawsAPastedKey(t *testing.T) {
	h := newSetupHarness(t, 120, 40, SetupOptions{})
	for _, sc := range setupScreens {
		if sc.name == "endpoint-key-masked" {
			sc.script(h)
		}
	}
	h.sv.draw()
	if strings.Contains(h.text(), "NOT-A-NAME") || !strings.Contains(h.text(), "hidden: not a name") {
		t.Fatalf("screen:\n%s", h.text())
	}
}

func TestSetupScreenBelowTheMinimumAsksForAResize(t *testing.T) {
	h := newSetupHarness(t, 50, 12, SetupOptions{})
	h.sv.draw()
	if !strings.Contains(h.text(), "minimum 60x16, now 50x12") {
		t.Fatalf("screen:\n%s", h.text())
	}
}

// A paste into a yes/no question answers nothing; typed y does.
func TestSetupPasteNeverAnswers(t *testing.T) {
	h := newSetupHarness(t, 80, 24, SetupOptions{})
	h.keys(key(tcell.KeyCtrlS), runeKey('y'))
	h.sv.input(tcell.NewEventPaste(true))
	h.keys(runeKey('y'), key(tcell.KeyEnter))
	h.sv.input(tcell.NewEventPaste(false))
	if h.sv.flow.Step() != setup.StepExclude {
		t.Fatalf("a paste answered: %v", h.sv.flow.Step())
	}
	h.keys(runeKey('y'))
	if h.sv.flow.Step() != setup.StepConsent {
		t.Fatalf("typed y did not answer: %v", h.sv.flow.Step())
	}
}
