package tui

import "time"

// Clock is the monotonic time source of the frame scheduler. Tests inject
// a manual clock so animation is checked frame by frame without sleeping.
type Clock interface {
	// Now is the monotonic time since the clock's start.
	Now() time.Duration
	// AfterFunc runs f after d; Stop cancels it.
	AfterFunc(d time.Duration, f func()) Stopper
}

// Stopper cancels a pending timer.
type Stopper interface{ Stop() bool }

type realClock struct{ start time.Time }

func (c realClock) Now() time.Duration { return time.Since(c.start) }

func (c realClock) AfterFunc(d time.Duration, f func()) Stopper { return time.AfterFunc(d, f) }

// frames schedules animation frames at a target rate. A frame that comes
// late skips the frames it missed (no catch-up burst) and nothing is
// armed while nothing moves.
type frames struct {
	interval time.Duration // 0: animation off (fps 0)
	next     time.Duration
	skipped  int
	drawn    int
}

// newFrames returns the schedule for fps in 0..60 (out of range values
// are clamped by the caller's validation).
func newFrames(fps int) frames {
	if fps <= 0 {
		return frames{}
	}
	// ceil(1e9/fps) ns so that 60 fps never runs faster than 60 Hz.
	return frames{interval: time.Duration((int64(time.Second) + int64(fps) - 1) / int64(fps))}
}

// start begins a motion period at now: the first frame is due one
// interval later.
func (f *frames) start(now time.Duration) { f.next = now + f.interval }

// due reports whether a frame should be drawn at now; a late frame counts
// the frames it skipped and schedules the next one an interval from now.
func (f *frames) due(now time.Duration) bool {
	if f.interval == 0 || now < f.next {
		return false
	}
	if late := now - f.next; late >= f.interval {
		f.skipped += int(late / f.interval)
	}
	f.next = now + f.interval
	f.drawn++
	return true
}

// wait is how long until the next frame.
func (f *frames) wait(now time.Duration) time.Duration {
	if d := f.next - now; d > 0 {
		return d
	}
	return 0
}
