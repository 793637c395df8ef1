package tui

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"runtime/debug"
	"sync"
	"syscall"

	"github.com/gdamore/tcell/v2"
	"github.com/josecorral/fluzo/lib/tui/setup"
	"github.com/josecorral/fluzo/lib/tui/theme"
)

// SetupOptions configure the welcome and setup flow (lib/tui/setup).
type SetupOptions struct {
	Screen tcell.Screen // nil: the real terminal
	Theme  string
	Caps   theme.Caps
	Env    setup.Env
	Seam   setup.Seam
	// Discover lists the endpoint's models; it runs off the UI goroutine
	// and only when the person asks for it.
	Discover func(context.Context, setup.DiscoverRequest) ([]string, error)
}

type discovered struct {
	gen    int
	models []string
	err    error
}

// RunSetup owns the terminal for the setup flow and returns how it
// ended. Like Run, it restores the terminal on every way out.
func RunSetup(ctx context.Context, o SetupOptions) (out setup.Outcome, err error) {
	scr := o.Screen
	if scr == nil {
		if scr, err = tcell.NewScreen(); err != nil {
			return out, fmt.Errorf("cannot open the terminal: %w", err)
		}
	}
	if err := scr.Init(); err != nil {
		return out, fmt.Errorf("cannot initialise the terminal: %w", err)
	}
	var restore sync.Once
	defer restore.Do(scr.Fini)
	defer func() {
		if r := recover(); r != nil {
			restore.Do(scr.Fini)
			fmt.Fprintf(os.Stderr, "fluzo-tui: internal error: %v\n%s", r, debug.Stack())
			err = fmt.Errorf("fluzo-tui crashed: %v", r)
		}
	}()
	// The same modes as the session (Run), so one restore contract holds
	// for both; focus reports are ignored here.
	scr.EnablePaste()
	scr.EnableFocus()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGINT)
	defer signal.Stop(sigs)
	events := make(chan tcell.Event, 64)
	go func() {
		for ev := scr.PollEvent(); ev != nil; ev = scr.PollEvent() {
			select {
			case events <- ev:
			case <-ctx.Done():
				return
			}
		}
	}()
	sv := newSetupView(o, scr)
	answers := make(chan discovered, 1)
	sv.draw()
	for {
		select {
		case ev := <-events:
			if eff := sv.input(ev); eff.Discover != nil && o.Discover != nil {
				req := *eff.Discover
				go func() {
					models, err := o.Discover(ctx, req)
					select {
					case answers <- discovered{req.Gen, models, err}:
					case <-ctx.Done():
					}
				}()
			}
		case a := <-answers:
			sv.flow.Discovered(a.gen, a.models, a.err)
		case <-sigs:
			out, _ := sv.flow.Finished()
			return out, nil
		case <-ctx.Done():
			out, _ := sv.flow.Finished()
			return out, nil
		}
		if out, done := sv.flow.Finished(); done {
			return out, nil
		}
		sv.draw()
	}
}

// setupView is the drawing and key glue of the flow.
type setupView struct {
	flow    *setup.Flow
	scr     tcell.Screen
	p       painter
	pasting bool
	paste   []rune
	shown   string // the title and status last painted whole
}

func newSetupView(o SetupOptions, scr tcell.Screen) *setupView {
	th, err := theme.New(o.Theme, o.Caps)
	if err != nil {
		th, _ = theme.New(theme.NameDefault, o.Caps)
	}
	return &setupView{flow: setup.New(o.Env, o.Seam), scr: scr, p: painter{scr: scr, style: th.Style, ascii: o.Caps.ASCII}}
}

// input maps a terminal event onto the flow. Pasted text is collected
// and handed over whole, so it can never answer or confirm anything.
func (sv *setupView) input(ev tcell.Event) setup.Effect {
	switch ev := ev.(type) {
	case *tcell.EventPaste:
		if ev.Start() {
			sv.pasting, sv.paste = true, sv.paste[:0]
		} else {
			sv.pasting = false
			sv.flow.Paste(string(sv.paste))
		}
	case *tcell.EventKey:
		if sv.pasting {
			if ev.Key() == tcell.KeyRune && len(sv.paste) < 4096 {
				sv.paste = append(sv.paste, ev.Rune())
			}
			return setup.Effect{}
		}
		if k, ok := setupKey(ev); ok {
			return sv.flow.Handle(k)
		}
	case *tcell.EventResize:
		sv.scr.Sync()
	}
	return setup.Effect{}
}

var setupKeys = map[tcell.Key]setup.KeyCode{
	tcell.KeyEnter: setup.KeyEnter, tcell.KeyEscape: setup.KeyEsc, tcell.KeyTab: setup.KeyTab,
	tcell.KeyBacktab: setup.KeyBacktab, tcell.KeyUp: setup.KeyUp, tcell.KeyDown: setup.KeyDown,
	tcell.KeyLeft: setup.KeyLeft, tcell.KeyRight: setup.KeyRight, tcell.KeyBackspace: setup.KeyBackspace,
	tcell.KeyBackspace2: setup.KeyBackspace, tcell.KeyCtrlU: setup.KeyClear, tcell.KeyCtrlD: setup.KeyDiscover,
	tcell.KeyCtrlS: setup.KeySummary, tcell.KeyCtrlC: setup.KeyQuit, tcell.KeyCtrlQ: setup.KeyQuit,
	tcell.KeyPgUp: setup.KeyPgUp, tcell.KeyPgDn: setup.KeyPgDn,
}

func setupKey(ev *tcell.EventKey) (setup.Key, bool) {
	if ev.Key() == tcell.KeyRune {
		if ev.Modifiers()&(tcell.ModAlt|tcell.ModCtrl) != 0 {
			return setup.Key{}, false
		}
		return setup.Key{Code: setup.KeyRune, Rune: ev.Rune()}, true
	}
	c, ok := setupKeys[ev.Key()]
	return setup.Key{Code: c}, ok
}
