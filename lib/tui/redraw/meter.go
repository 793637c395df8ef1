// Package redraw measures the TUI's own redraws for the developer menu's
// rendering diagnostics overlay: how many frames the application drew in
// the last second, how long the last one took and how many animation
// frames were skipped. These are application redraws, never the
// terminal's display refresh rate, and the overlay says so. It keeps a
// fixed ring of timestamps, so measuring costs no allocation per frame.
package redraw

import "time"

// window is the span the redraw cadence counts over.
const window = time.Second

// ringSize bounds the timestamps kept: above 128 redraws per second the
// cadence reads as "128+" rather than growing memory.
const ringSize = 128

// Meter records redraws on a monotonic clock (durations since an origin).
type Meter struct {
	ends    [ringSize]time.Duration
	n, next int
	last    time.Duration
	skipped int
}

// Record notes one redraw that started at start and ended at end, with
// the animation schedule's total of skipped frames so far.
func (m *Meter) Record(start, end time.Duration, skipped int) {
	m.ends[m.next] = end
	m.next = (m.next + 1) % ringSize
	m.n = min(m.n+1, ringSize)
	m.last = max(end-start, 0)
	m.skipped = skipped
}

// Stats is a reading of the meter.
type Stats struct {
	// PerSecond counts redraws that ended in the second before now;
	// Saturated means the ring was full, so the true count may be higher.
	PerSecond int
	Saturated bool
	// LastFrame is how long the last redraw took to draw (unknown before
	// the first: Frames is 0).
	LastFrame time.Duration
	Frames    int
	// Skipped is the animation frames skipped because a frame was late.
	Skipped int
}

// Read returns the stats at now.
func (m *Meter) Read(now time.Duration) Stats {
	s := Stats{LastFrame: m.last, Frames: m.n, Skipped: m.skipped}
	for i := 0; i < m.n; i++ {
		if t := m.ends[i]; t > now-window && t <= now {
			s.PerSecond++
		}
	}
	s.Saturated = s.PerSecond == ringSize
	return s
}
