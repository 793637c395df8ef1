package tui

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"

	"github.com/gdamore/tcell/v2"
	"github.com/josecorral/fluzo/lib/port"
)

// Run owns the terminal for one session against the serve client c. The
// terminal modes it sets (alternate screen, bracketed paste, focus
// reporting, mouse when on) are restored on every way out: quit, Ctrl+C,
// a panic in the screen goroutine, SIGTERM/SIGHUP/SIGINT and a lost port.
func Run(ctx context.Context, opts Options, c *port.Client) (err error) {
	scr := opts.Screen
	if scr == nil {
		if scr, err = tcell.NewScreen(); err != nil {
			return fmt.Errorf("cannot open the terminal: %w", err)
		}
	}
	if err := scr.Init(); err != nil {
		return fmt.Errorf("cannot initialise the terminal: %w", err)
	}
	restored := false
	restore := func() {
		if !restored {
			restored = true
			scr.Fini()
		}
	}
	defer restore()
	defer func() {
		if r := recover(); r != nil {
			restore()
			fmt.Fprintf(os.Stderr, "fluzo-tui: internal error: %v\n%s", r, debug.Stack())
			err = fmt.Errorf("fluzo-tui crashed: %v", r)
		}
	}()
	scr.EnablePaste()
	scr.EnableFocus()
	if opts.Mouse {
		scr.EnableMouse()
	}
	if c != nil {
		opts.Port = c
	}
	a := newApp(opts, scr)
	go a.pollInput()
	if c != nil {
		go a.pumpRecords(c)
	}
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGINT)
	defer signal.Stop(sigs)
	go func() {
		select {
		case <-sigs:
			a.box.close()
		case <-ctx.Done():
			a.box.close()
		}
	}()
	a.begin()
	startDone := make(chan struct{})
	if opts.Start != nil {
		// The child starts once the first frame is on the terminal, so
		// its fork, exec and start-up never compete with that frame on a
		// busy machine; the composer takes a draft while serve opens its
		// store.
		go func() {
			defer close(startDone)
			c, err := opts.Start()
			a.box.setStarted(c, err)
		}()
	} else {
		close(startDone)
	}
	defer func() { <-startDone }() // opts.Start's caller reads the client after Run
	for a.wake(a.box.wait()) {
	}
	if a.startErr != nil {
		return a.startErr
	}
	if a.taskActive() && a.task.id != "" {
		// Leaving by a signal with a task running: ask it to stop
		// gracefully rather than leave it running without a client.
		a.send(port.Cancel(a.task.id))
	}
	return nil
}

// begin draws the first frame (loading: the composer already takes a
// draft) and, when the port is there, asks it for its snapshot and
// settings; a port still starting is asked in connected.
func (a *App) begin() {
	a.phase = phaseLoading
	if a.opts.Port != nil {
		a.connected()
	}
	a.render()
}

func (a *App) connected() {
	a.send(port.Subscribe())
	a.send("settings", nil)
}

// portStarted takes the serve child started beside the first frame; a
// child that cannot start ends the session with its typed error.
func (a *App) portStarted(s *started) {
	if s.err != nil {
		a.startErr, a.quitting = s.err, true
		return
	}
	a.opts.Port = s.client
	go a.pumpRecords(s.client)
	a.connected()
}

// pollInput is the only caller of PollEvent; it never touches state.
func (a *App) pollInput() {
	for {
		ev := a.scr.PollEvent()
		if ev == nil {
			return
		}
		a.box.putEvent(ev)
	}
}

func (a *App) pumpRecords(c Conn) {
	for r := range c.Records() {
		a.box.putRecord(r)
	}
	a.box.setLost(c.Err())
}
