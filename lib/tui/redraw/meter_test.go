package redraw

import (
	"testing"
	"time"
)

func TestMeterCountsRedrawsInTheLastSecond(t *testing.T) {
	var m Meter
	if s := m.Read(0); s.Frames != 0 || s.PerSecond != 0 {
		t.Fatalf("empty meter: %+v", s)
	}
	for i := range 30 {
		at := time.Duration(i) * 50 * time.Millisecond // 20 per second for 1.5 s
		m.Record(at, at+2*time.Millisecond, i/10)
	}
	s := m.Read(1500 * time.Millisecond)
	if s.PerSecond != 20 || s.LastFrame != 2*time.Millisecond || s.Skipped != 2 || s.Saturated {
		t.Fatalf("stats %+v", s)
	}
	if s := m.Read(10 * time.Second); s.PerSecond != 0 || s.Frames != 30 {
		t.Errorf("idle reading %+v", s)
	}
}

func TestMeterSaturatesInsteadOfGrowing(t *testing.T) {
	var m Meter
	for i := range 500 {
		at := time.Duration(i) * time.Millisecond
		m.Record(at, at, 0)
	}
	if s := m.Read(500 * time.Millisecond); !s.Saturated || s.PerSecond != ringSize {
		t.Fatalf("stats %+v", s)
	}
}
