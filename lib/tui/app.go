// Package tui is fluzo-tui, Fluzo's terminal UI: a client of the
// fluzo-agent serve port that owns one tcell screen from one goroutine.
// Input, port records and animation ticks feed a coalescing box; each
// wake drains everything pending, applies it, repaints what changed and
// calls Show once (fzf's shape). See docs/TUI.md.
package tui

import (
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/josecorral/fluzo/lib/port"
	"github.com/josecorral/fluzo/lib/tui/theme"
)

// Sender is where commands go: the serve client in production, a
// recorder in tests.
type Sender interface {
	Send(cmd string, args port.Args) (string, error)
}

// Options configure one TUI session.
type Options struct {
	Screen        tcell.Screen // nil: the real terminal
	Clock         Clock        // nil: the monotonic wall clock
	Port          Sender
	FPS           int  // 0..60
	FPSSet        bool // FPS came from the command line (else tui.animation_fps applies)
	ReducedMotion bool
	Theme         string     // default or high-contrast
	Caps          theme.Caps // colour depth and ASCII (theme.Detect + flags)
	Mouse         bool
	Workspace     string
	// ReadOnlyHistory reads stored events without owning the workspace
	// (fluzo-store events), for when another process owns it; nil: none.
	ReadOnlyHistory func() ([]port.Event, error)
	// Draft pre-fills the composer (fluzo demo); Submit sends it at once.
	Draft  string
	Submit bool
}

type focus uint8

const (
	focusComposer focus = iota
	focusChat
)

type dialogKind uint8

const (
	dialogNone dialogKind = iota
	dialogQuit
	dialogYolo
	dialogForceStop
	dialogResume
	dialogHelp
)

// App is the whole screen state. Only the screen goroutine touches it.
type App struct {
	opts  Options
	scr   tcell.Screen
	clock Clock
	box   *box
	p     painter
	th    *theme.Theme

	items     []*item
	truncated int // items dropped from memory (older pages via the port)
	info      sessionInfo
	task      taskInfo
	phase     phase
	yolo      bool
	owner     *port.Owner
	lostErr   error

	comp       composer
	focus      focus
	focusedAt  time.Duration
	selected   int  // selected item index in chat focus
	pasting    bool // inside a bracketed paste
	pasteBytes int
	pasteCut   bool
	pasteSeen  time.Duration
	lastEnter  time.Duration
	notice     string

	// follow is explicit: while paused the view never moves; unread counts
	// rows that arrived below it.
	follow  bool
	scroll  int // top row of the view in the conversation's row space
	unread  int
	rowsTot int

	dialog       dialogKind
	dialogChoice int // 0 is always the safe default
	dialogAt     time.Duration
	sidebarOff   bool
	mouseOn      bool

	fr            frames
	hist          history
	readOnlyAsked bool
	opsReq        string // the task query filling tool cards
	opsAgain      bool
	waveRow       int // screen row of the message wave, -1 when not shown
	agePhase      phase
	phaseSince    time.Duration
	timer         Stopper
	moving        bool
	start         time.Duration
	dirty         dirtySet
	quitting      bool
	pending       map[string]string // request id -> command name
	stats         renderStats
}

// dirtySet names the regions to repaint on this wake.
type dirtySet struct {
	all, identity bool
}

type renderStats struct {
	frames, identityFrames, fullFrames, layouts int
}

// maxItems bounds the conversation kept in memory.
const maxItems = 2000

func newApp(opts Options, scr tcell.Screen) *App {
	a := &App{opts: opts, scr: scr, clock: opts.Clock, box: newBox(), follow: true, pending: map[string]string{}, mouseOn: opts.Mouse}
	if a.clock == nil {
		a.clock = realClock{start: time.Now()}
	}
	th, err := theme.New(opts.Theme, opts.Caps)
	if err != nil { // validated by the command line; fall back rather than fail a frame
		th, _ = theme.New(theme.NameDefault, opts.Caps)
	}
	a.th = th
	a.p = painter{scr: scr, style: th.Style, ascii: opts.Caps.ASCII}
	a.fr = newFrames(opts.FPS)
	if opts.ReducedMotion {
		a.fr = newFrames(0)
	}
	a.info = sessionInfo{root: opts.Workspace, model: "unknown", context: "unknown", cost: "unknown", session: "new session"}
	a.comp.text, a.comp.cursor = opts.Draft, len(opts.Draft)
	a.start = a.clock.Now()
	a.lastEnter = a.start - time.Hour
	a.dirty.all = true
	a.waveRow = -1
	return a
}

// send writes a command and remembers what the reply answers.
func (a *App) send(cmd string, args port.Args) string {
	if a.opts.Port == nil {
		return ""
	}
	id, err := a.opts.Port.Send(cmd, args)
	if err != nil {
		a.setNotice("could not send " + cmd + ": the port is lost")
		return ""
	}
	a.pending[id] = cmd
	return id
}

func (a *App) setNotice(s string) {
	a.notice = s
	a.dirty.all = true
}

// wake applies one batch and repaints; it returns false to quit.
func (a *App) wake(b batch) bool {
	for _, r := range b.records {
		a.apply(r)
	}
	if b.lost != nil {
		a.portLost(b.lost)
	}
	if b.history != nil {
		a.readOnlyLoaded(b.history)
	}
	for _, ev := range b.events {
		a.input(ev)
	}
	if b.resize {
		a.scr.Sync()
		a.dirty.all = true
	}
	if b.tick {
		a.timer = nil
		if a.fr.due(a.clock.Now()) {
			a.dirty.identity = true
		}
	}
	a.render()
	a.armTimer()
	return !a.quitting && !b.closed
}

func (a *App) armTimer() {
	if !a.motionActive() {
		if a.timer != nil {
			a.timer.Stop()
			a.timer = nil
		}
		a.moving = false
		return
	}
	if a.timer != nil {
		return
	}
	now := a.clock.Now()
	if !a.moving { // a new motion period: the first frame is one interval away
		a.fr.start(now)
		a.moving = true
	}
	a.timer = a.clock.AfterFunc(a.fr.wait(now), a.box.setTick)
}
