package tui

import (
	"context"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"
	"github.com/josecorral/fluzo/lib/port"
)

// finiScreen records whether the terminal was restored.
type finiScreen struct {
	tcell.SimulationScreen
	finis int
}

func (s *finiScreen) Fini() { s.finis++; s.SimulationScreen.Fini() }

type panickingPort struct{}

func (panickingPort) Send(string, port.Args) (string, error) { panic("boom in the screen goroutine") }

// A panic in the screen goroutine restores the terminal first, then is
// reported as an error (the stack goes to stderr).
func TestPanicRestoresTheTerminal(t *testing.T) {
	scr := &finiScreen{SimulationScreen: tcell.NewSimulationScreen("UTF-8")}
	err := Run(context.Background(), Options{Screen: scr, Port: panickingPort{}, Clock: &manualClock{}}, nil)
	if err == nil || !strings.Contains(err.Error(), "boom") {
		t.Fatalf("err = %v", err)
	}
	if scr.finis != 1 {
		t.Fatalf("Fini called %d times, want once", scr.finis)
	}
}

// A cancelled context (SIGTERM/SIGHUP/SIGINT reach Run this way and
// through its own signal handler) ends the loop and restores the terminal.
func TestSignalContextRestoresTheTerminal(t *testing.T) {
	scr := &finiScreen{SimulationScreen: tcell.NewSimulationScreen("UTF-8")}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := Run(ctx, Options{Screen: scr, Port: &recorder{}, Clock: &manualClock{}}, nil); err != nil {
		t.Fatal(err)
	}
	if scr.finis != 1 {
		t.Fatalf("Fini called %d times", scr.finis)
	}
}
