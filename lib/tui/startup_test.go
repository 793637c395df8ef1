package tui

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/josecorral/fluzo/lib/port"
)

// scriptedConn is a started port in tests: the recorder sends, records
// never arrive on their own (the test feeds them as wakes).
type scriptedConn struct {
	*recorder
	recs chan port.Record
}

func (c scriptedConn) Records() <-chan port.Record { return c.recs }
func (c scriptedConn) Err() error                  { return nil }

// The first frame is usable before serve is up: the composer is focused
// with its placeholder and the state says connecting; a draft submitted
// then is kept and sent as the task once the snapshot says idle.
func TestFirstFrameTakesADraftBeforeServeStarts(t *testing.T) {
	h := newHarness(t, 120, 40, Options{FPS: 60})
	rec := h.port
	h.app.opts.Port = nil // serve still starting
	h.app.begin()
	h.mustShow("Ask anything…")
	h.mustShow("Connecting to fluzo-agent serve")
	if x, y, visible := h.scr.GetCursor(); !visible || x == 0 && y == 0 {
		t.Fatalf("the composer has no cursor on the first frame (%d,%d %v)", x, y, visible)
	}
	h.keys(typed("fix the bug")...)
	h.keys(key(tcell.KeyEnter))
	if len(rec.cmds()) != 0 {
		t.Fatalf("sent %v before the port started", rec.cmds())
	}
	h.mustShow("fix the bug")
	h.mustShow("the draft is sent once it is ready")

	conn := scriptedConn{recorder: rec, recs: make(chan port.Record)}
	t.Cleanup(func() { close(conn.recs) })
	h.app.wake(batch{started: &started{client: conn}})
	if got := strings.Join(rec.cmds(), ","); got != "subscribe,settings" {
		t.Fatalf("on start the app sent %q, want subscribe,settings", got)
	}
	h.records(`{"v":1,"type":"ack","re":"1","data":{"cursor":0,"running":{"session":"","task":"","attempt":"","trace":""},"seqs":{},"tasks":[]}}`)
	st := rec.last("start_task")
	if st == nil || st["request"] != "fix the bug" {
		t.Fatalf("the kept draft was not submitted as the task: %v (sent %v)", st, rec.cmds())
	}
}

// shownScreen says when a frame reached the terminal.
type shownScreen struct {
	tcell.SimulationScreen
	shown chan struct{}
}

func (s *shownScreen) Show() {
	s.SimulationScreen.Show()
	select {
	case s.shown <- struct{}{}:
	default:
	}
}

// Run paints the first frame while Start is still running, and a serve
// that cannot start ends the session with its error.
func TestRunPaintsBeforeStartReturns(t *testing.T) {
	scr := &shownScreen{SimulationScreen: tcell.NewSimulationScreen("UTF-8"), shown: make(chan struct{}, 1)}
	painted := make(chan string, 1)
	start := func() (Conn, error) {
		select {
		case <-scr.shown: // the screen goroutine now waits on the box
			cells, _, _ := scr.GetContents()
			var b strings.Builder
			for _, c := range cells {
				b.WriteString(string(c.Runes))
			}
			painted <- b.String()
		case <-time.After(10 * time.Second):
			painted <- ""
		}
		return nil, errors.New("cannot start fluzo-agent")
	}
	done := make(chan error, 1)
	go func() {
		done <- Run(context.Background(), Options{Screen: scr, Clock: &manualClock{}, Start: start}, nil)
	}()
	if frame := <-painted; !strings.Contains(frame, "Ask anything…") || !strings.Contains(frame, "Connecting to fluzo-agent serve") {
		t.Fatalf("no usable first frame while serve was starting: %q", frame)
	}
	if err := <-done; err == nil || !strings.Contains(err.Error(), "cannot start fluzo-agent") {
		t.Fatalf("Run returned %v, want the start error", err)
	}
}

// slowShowScreen counts the frames that reached the terminal; each Show
// takes a while, as a frame does on a loaded machine.
type slowShowScreen struct {
	tcell.SimulationScreen
	shows atomic.Int32
}

func (s *slowShowScreen) Show() {
	time.Sleep(50 * time.Millisecond)
	s.SimulationScreen.Show()
	s.shows.Add(1)
}

// serve is started only after the first frame is on the terminal: its
// fork, exec and start-up never compete with the first frame.
func TestServeStartsAfterTheFirstFrame(t *testing.T) {
	scr := &slowShowScreen{SimulationScreen: tcell.NewSimulationScreen("UTF-8")}
	shownAtStart := make(chan int32, 1)
	start := func() (Conn, error) {
		shownAtStart <- scr.shows.Load()
		return nil, errors.New("cannot start fluzo-agent")
	}
	if err := Run(context.Background(), Options{Screen: scr, Clock: &manualClock{}, Start: start}, nil); err == nil {
		t.Fatal("Run returned no error for a serve that cannot start")
	}
	if n := <-shownAtStart; n < 1 {
		t.Fatalf("serve was started after %d frames were shown, want after the first", n)
	}
}
