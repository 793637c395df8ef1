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
	"github.com/josecorral/fluzo/lib/tui/text"
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
	Theme         string
	ASCII         bool
	NoColor       bool
	Colors16      bool
	Mouse         bool
	Workspace     string
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
)

// App is the whole screen state. Only the screen goroutine touches it.
type App struct {
	opts  Options
	scr   tcell.Screen
	clock Clock
	box   *box
	p     painter

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

	fr       frames
	timer    Stopper
	moving   bool
	start    time.Duration
	dirty    dirtySet
	quitting bool
	pending  map[string]string // request id -> command name
	stats    renderStats
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
	a.p = painter{scr: scr, style: styleFunc(opts), ascii: opts.ASCII}
	a.fr = newFrames(opts.FPS)
	if opts.ReducedMotion {
		a.fr = newFrames(0)
	}
	a.info = sessionInfo{root: opts.Workspace, model: "unknown", context: "unknown", cost: "unknown", session: "new session"}
	a.comp.text, a.comp.cursor = opts.Draft, len(opts.Draft)
	a.start = a.clock.Now()
	a.lastEnter = a.start - time.Hour
	a.dirty.all = true
	return a
}

// styleFunc is TEMPORARY until lib/tui/theme lands: a plain mapping of
// tokens to terminal styles honouring NO_COLOR.
func styleFunc(opts Options) func(theme.Token, text.Attr) tcell.Style {
	colours := map[theme.Token]tcell.Color{
		theme.Accent: tcell.ColorTeal, theme.Muted: tcell.ColorGray, theme.Success: tcell.ColorGreen,
		theme.Warning: tcell.ColorYellow, theme.Error: tcell.ColorRed, theme.Subtle: tcell.ColorSilver,
		theme.Separator: tcell.ColorGray, theme.ToolTitle: tcell.ColorTeal, theme.Highlight: tcell.ColorAqua,
	}
	return func(tok theme.Token, at text.Attr) tcell.Style {
		st := tcell.StyleDefault
		if c, ok := colours[tok]; ok && !opts.NoColor {
			st = st.Foreground(c)
		}
		return st.Bold(at&text.Bold != 0).Dim(at&text.Dim != 0).Reverse(at&text.Reverse != 0)
	}
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

// motionActive gates the animation timer: nothing is armed while the
// screen is static (idle, FPS 0, reduced motion, a dialog open).
func (a *App) motionActive() bool {
	return a.fr.interval > 0 && a.phase.moving() && a.dialog == dialogNone
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
