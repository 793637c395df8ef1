package tui

import (
	"time"

	"github.com/josecorral/fluzo/lib/tui/identity"
)

// idState maps the screen's phase to the identity's state, so the
// wordmark, activity bar and wave follow the real task state.
func (a *App) idState() identity.State {
	switch a.phase {
	case phaseRunning:
		return identity.Running
	case phaseWaiting:
		return identity.Waiting
	case phaseStopping:
		return identity.Stopping
	case phaseBlocked, phaseInterrupted, phaseBusy:
		return identity.Blocked
	case phaseCancelled:
		return identity.Cancelled
	case phaseFailed, phaseLost:
		return identity.Failed
	case phaseCompleted:
		return identity.Completed
	}
	return identity.Ready
}

// phaseAge is the time spent in the current phase (the tint's clock).
func (a *App) phaseAge() time.Duration {
	now := a.clock.Now()
	if a.phase != a.agePhase {
		a.agePhase, a.phaseSince = a.phase, now
	}
	return now - a.phaseSince
}

func (a *App) fps() int {
	if a.fr.interval == 0 {
		return 0
	}
	return int((time.Second + a.fr.interval - 1) / a.fr.interval)
}

// wordmarkMoving and barMoving are the identity's motion gates: nothing
// moves at FPS 0, under reduced motion or (for the wordmark and wave)
// under a dialog; the bar keeps moving above dialogs.
func (a *App) wordmarkMoving() bool {
	return identity.MotionActive(a.idState(), a.phaseAge(), a.fps(), false, a.dialog != dialogNone)
}

func (a *App) barMoving() bool { return identity.BarActive(a.idState(), a.fps(), false) }

// motionActive gates the frame timer: no timer while nothing moves.
func (a *App) motionActive() bool { return a.wordmarkMoving() || a.barMoving() }

// drawIdentity paints every identity cell: the activity row, the
// wordmark (wide) or compact form (compact), and the message wave when it
// is on screen. Animation frames call only this.
func (a *App) drawIdentity(l layout) {
	now := a.clock.Now() - a.start
	st := a.idState()
	identity.ActivityBar(a.scr, 0, l.w, a.th, identity.Bar{T: now, Working: identity.Working(st), Moving: a.barMoving()})
	f := identity.Frame{State: st, Age: a.phaseAge(), Moving: a.wordmarkMoving()}
	if l.compact {
		identity.Compact(a.scr, 1, 1, a.th, f)
	} else {
		identity.Wordmark(a.scr, l.sidebar.x, l.sidebar.y, a.th, f)
	}
	if a.waveRow >= 0 {
		identity.DrawWave(a.scr, l.conv.x, a.waveRow, a.th, identity.Wave{T: now, Moving: f.Moving,
			Elapsed: a.clock.Now() - a.task.startedAt})
	}
}
