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
	// DevMenu enables the developer menu; DevMenuSet says the command
	// line decided (--dev-menu / --no-dev-menu), else tui.dev_menu does.
	DevMenu, DevMenuSet bool
	Theme               string     // default or high-contrast
	Caps                theme.Caps // colour depth and ASCII (theme.Detect + flags)
	Mouse               bool
	Workspace           string
	// ReadOnlyHistory reads stored events without owning the workspace
	// (fluzo-store events), for when another process owns it; nil: none.
	ReadOnlyHistory func() ([]port.Event, error)
	// Draft pre-fills the composer (fluzo demo); Submit sends it at once.
	Draft  string
	Submit bool
	// Start, when set, starts the serve client beside the first frame
	// (Run's c is then nil); its error ends the session.
	Start func() (Conn, error)
}

// Conn is a started port: commands out, records in (*port.Client; a
// scripted one in tests).
type Conn interface {
	Sender
	Records() <-chan port.Record
	Err() error
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
	dialogPalette
	dialogTasks
	dialogDiag
	dialogSessions
	dialogDiff
	dialogSettings
	dialogTheme
	dialogDevMenu
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
	pal          palette // the command palette's search (palette.go)
	helpPage     int
	td           taskData // the port's answers for the tasks and diagnostics views
	tv           tasksView
	sv           sessionsView // the sessions view and an opened session (sessions.go)
	rs           resumeState  // the resume confirmation (resume.go)
	diagScroll   int
	dv           diffScreen // the diff and verification view (diffscreen.go)
	dg           diagEvents // the diagnostics view's correlated events (diagevents.go)
	stopTarget   string     // the task a force-stop confirmation names
	sidebarOff   bool
	mouseOn      bool
	button1Down  bool // the primary button is held: its repeats are not clicks
	blurred      bool // a focus-out was seen and no focus-in since

	fr            frames
	hist          history
	readOnlyAsked bool
	opsReq        string // the task query filling tool cards
	opsAgain      bool
	waveRow       int // screen row of the message wave, -1 when not shown
	agePhase      phase
	phaseSince    time.Duration
	timer         Stopper
	timerAt       time.Duration // when the one timer fires
	shownSecond   int64         // the elapsed second last marked for drawing
	moving        bool
	start         time.Duration
	dirty         dirtySet
	quitting      bool
	pending       map[string]string // request id -> command name
	startErr      error             // the serve child could not start
	stats         renderStats
	rows          rowIndex   // the conversation's row space, kept across frames
	notes         toasts     // in-app and desktop notifications (toast.go, desktop.go)
	cfg           settingsUI // settings screens, theme picker, developer menu (settings.go)
}

// dirtySet names the regions to repaint on this wake.
type dirtySet struct {
	all, identity bool
}

type renderStats struct {
	frames, identityFrames, fullFrames, layouts int
	itemsDrawn                                  int // items with a row put on screen
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
	a.cfg.devMenu = opts.DevMenu
	a.notes = newToasts(scr)
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
	if b.started != nil {
		a.portStarted(b.started)
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
		a.elapsedTicked()
	}
	a.expireToasts()
	a.render()
	a.notes.desk.flush() // after Show: never inside a frame
	a.armTimer()
	return !a.quitting && !b.closed
}

// armTimer keeps at most one timer: animation frames while something
// moves, else one at the next second of a running task's elapsed counter
// (it ticks even at FPS 0), else none, so an idle screen costs nothing —
// nor does one in a terminal known to be unfocused (focus.go). A toast's
// expiry brings the timer forward when it is due first.
func (a *App) armTimer() {
	motion := a.motionActive()
	if !motion || a.blurred {
		a.moving = false
	}
	at, ok := a.nextWake(motion)
	if !ok {
		a.stopTimer()
		return
	}
	if a.timer != nil && a.timerAt == at {
		return
	}
	a.stopTimer()
	a.timerAt = at
	a.timer = a.clock.AfterFunc(max(at-a.clock.Now(), 0), a.box.setTick)
}

// nextWake is when the screen must next wake on its own, if ever.
func (a *App) nextWake(motion bool) (time.Duration, bool) {
	if a.blurred {
		return 0, false // expiry is checked on the next wake instead
	}
	now := a.clock.Now()
	var at time.Duration
	ok := false
	switch {
	case motion:
		if !a.moving { // a new motion period: the first frame is one interval away
			a.fr.start(now)
			a.moving = true
		}
		at, ok = now+a.fr.wait(now), true
	case a.elapsedShown():
		at, ok = now+time.Second-(now-a.task.startedAt)%time.Second, true
	}
	if d, has := a.notes.q.NextDeadline(); has && (!ok || d < at) {
		at, ok = d, true
	}
	return at, ok
}

func (a *App) stopTimer() {
	if a.timer != nil {
		a.timer.Stop()
		a.timer = nil
	}
}

// elapsedShown: a task's elapsed time is on screen (the wave while
// running, the status rows while waiting or stopping).
func (a *App) elapsedShown() bool { return a.phase.moving() }

// elapsedTicked marks what shows the elapsed time when its second
// changed since the last frame that drew it.
func (a *App) elapsedTicked() {
	if !a.elapsedShown() {
		return
	}
	sec := int64((a.clock.Now() - a.task.startedAt) / time.Second)
	if sec == a.shownSecond {
		return
	}
	a.shownSecond = sec
	if a.phase == phaseRunning {
		a.dirty.identity = true // the wave carries it
	} else {
		a.dirty.all = true
	}
}
