package identity

import (
	"math"
	"time"

	"github.com/josecorral/fluzo/lib/tui/theme"
)

// State is the task state the identity shows, one per port task state.
type State uint8

const (
	Pending State = iota
	Ready
	Running
	Waiting
	Blocked
	Stopping
	Completed
	Failed
	Cancelled
)

var stateNames = [...]string{
	"pending", "ready", "running", "waiting", "blocked", "stopping",
	"completed", "failed", "cancelled",
}

// String is the port's name for the state, which is also the text label
// shown beside the identity (colour is never the only signal).
func (s State) String() string {
	if int(s) < len(stateNames) {
		return stateNames[s]
	}
	return "unknown"
}

// StateFromTask maps a port task state string to a State. A string the
// TUI does not know gives Pending (dimmed and static, the least alarming
// look) and false, so the caller can label it as unknown rather than
// pretend it is pending.
func StateFromTask(s string) (State, bool) {
	for i, name := range stateNames {
		if s == name {
			return State(i), true
		}
	}
	return Pending, false
}

// completedSettle is how long the completion tint takes to settle.
const completedSettle = time.Second

// MotionActive is the motion gate: the identity moves only while a task
// runs or waits, or for the first second after it completes, and only
// when animation is on (FPS > 0, no reduced motion) and no overlay is
// open. Everything else is drawn static, so no timer runs.
func MotionActive(s State, age time.Duration, fps int, reducedMotion, overlayOpen bool) bool {
	if fps <= 0 || reducedMotion || overlayOpen {
		return false
	}
	return s == Running || s == Waiting || (s == Completed && age < completedSettle)
}

// BarActive is the gate for the top activity bar, which unlike the
// wordmark keeps moving above overlays: it moves while a task runs and
// animation is on.
func BarActive(s State, fps int, reducedMotion bool) bool {
	return s == Running && fps > 0 && !reducedMotion
}

// Working reports whether the activity bar shows work (the moving
// gradient) rather than the idle grey bar.
func Working(s State) bool { return s == Running }

// Per-state tint colours (TUI-REFERENCE §2.3).
var (
	tintWaiting   = theme.RGB{R: 255, G: 190, B: 80}  // amber
	tintBlocked   = theme.RGB{R: 230, G: 175, B: 60}  // blocked, stopping
	tintCompleted = theme.RGB{R: 0, G: 255, B: 178}   // Julep
	tintFailed    = theme.RGB{R: 255, G: 90, B: 90}   // red
	tintCancelled = theme.RGB{R: 133, G: 131, B: 146} // Squid
)

// tint is how a state recolours the identity: a tint colour (or none,
// scaling the cell's own colour) at a strength.
type tint struct {
	rgb      theme.RGB
	hasTint  bool
	strength float64
}

// Frozen strengths: what each state looks like when it does not move.
const (
	dimStrength        = 0.55
	waitingFrozen      = 0.90
	completedSettled   = 0.65
	runningPulsePeriod = 1.6
	waitingPulsePeriod = 3.0
)

// tintFor is the state's tint at position p (0..1 across the line) and
// state age s in seconds; moving false selects the static strengths.
func tintFor(st State, p, s float64, moving bool) tint {
	if !moving {
		s = 0
	}
	switch st {
	case Pending, Ready:
		return tint{strength: dimStrength}
	case Running:
		if !moving {
			return tint{strength: 1}
		}
		// Inward pulse: the phase lags with distance from the centre.
		d := 2 * math.Abs(p-0.5)
		return tint{strength: 0.75 + 0.25*math.Cos(2*math.Pi*(d+s/runningPulsePeriod))}
	case Waiting:
		return tint{rgb: tintWaiting, hasTint: true, strength: 0.75 + 0.15*math.Cos(2*math.Pi*s/waitingPulsePeriod)}
	case Blocked, Stopping:
		return tint{rgb: tintBlocked, hasTint: true, strength: 1}
	case Completed:
		str := completedSettled
		if moving {
			str = 1 - 0.35*math.Min(s, 1)
		}
		return tint{rgb: tintCompleted, hasTint: true, strength: str}
	case Failed:
		return tint{rgb: tintFailed, hasTint: true, strength: 1}
	case Cancelled:
		return tint{rgb: tintCancelled, hasTint: true, strength: 1}
	}
	return tint{strength: 1}
}

// named16 is the state's colour without RGB (nil-equivalent false for
// Running, which keeps its 16-colour gradient).
func named16(st State) (colour, bool) {
	switch st {
	case Pending, Ready, Cancelled:
		return namedColour(theme.ANSIDarkGray), true
	case Waiting, Blocked, Stopping:
		return namedColour(theme.ANSIYellow), true
	case Completed:
		return namedColour(theme.ANSIGreen), true
	case Failed:
		return namedColour(theme.ANSIRed), true
	}
	return colour{}, false
}

// applyTint recolours one identity colour for the state, last of all
// passes. Shadows keep their relief: ×0.32 of the tint, DarkGray without
// RGB. named is the reference's non-RGB rule for the tints; the 256
// palette takes it too (all but Running), because its cube is too coarse
// for a scaled tint: the pulsing amber fits dusty rose and the ×0.32
// shadow fits the surface's own grey.
func applyTint(c colour, st State, p, s float64, moving, named bool) colour {
	shadowCell := c.isShadow()
	if !c.isRGB() || (named && st != Running) {
		if shadowCell {
			return namedColour(theme.ANSIDarkGray)
		}
		if n, ok := named16(st); ok {
			return n
		}
		return c
	}
	t := tintFor(st, p, s, moving)
	if !t.hasTint {
		return rgbColour(c.rgb.Scale(t.strength))
	}
	factor := t.strength
	if shadowCell {
		factor *= shadowFactor
	}
	return rgbColour(t.rgb.Scale(factor))
}
