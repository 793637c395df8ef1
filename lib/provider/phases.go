package provider

import (
	"context"
	"sync"
	"time"
)

// phaseWatch enforces the per-attempt phase timeouts by cancelling the
// attempt's context with a cause that names the phase. The stream reader
// calls touch on every received line and output on the first meaningful
// delta; the header timer is stopped when headers arrive.
type phaseWatch struct {
	mu          sync.Mutex
	cancel      context.CancelCauseFunc
	header      *time.Timer
	firstOutput *time.Timer
	idle        *time.Timer
	idleAfter   time.Duration
	stopped     bool
}

// phaseError is the cancellation cause of an expired phase.
type phaseError struct{ class Class }

func (p *phaseError) Error() string { return string(p.class) }

func startPhases(parent context.Context, t Timeouts, firstOutput bool) (context.Context, *phaseWatch) {
	ctx, cancel := context.WithCancelCause(parent)
	w := &phaseWatch{cancel: cancel, idleAfter: t.Idle}
	w.header = time.AfterFunc(t.Header, w.expire(ClassTimeoutHeader))
	if firstOutput {
		w.firstOutput = time.AfterFunc(t.FirstOutput, w.expire(ClassTimeoutFirstOutput))
	}
	return ctx, w
}

func (w *phaseWatch) expire(c Class) func() {
	return func() { w.cancel(&phaseError{class: c}) }
}

// headers marks the end of the header phase and starts the idle timer.
func (w *phaseWatch) headers() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.header.Stop()
	if !w.stopped {
		w.idle = time.AfterFunc(w.idleAfter, w.expire(ClassTimeoutIdle))
	}
}

// touch resets the idle timer: any bytes on the wire are progress there.
func (w *phaseWatch) touch() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.idle != nil && !w.stopped {
		w.idle.Reset(w.idleAfter)
	}
}

// output marks the first meaningful output.
func (w *phaseWatch) output() {
	if w.firstOutput != nil {
		w.firstOutput.Stop()
	}
}

// stop releases the timers and the context.
func (w *phaseWatch) stop() {
	w.mu.Lock()
	w.stopped = true
	w.header.Stop()
	if w.firstOutput != nil {
		w.firstOutput.Stop()
	}
	if w.idle != nil {
		w.idle.Stop()
	}
	w.mu.Unlock()
	w.cancel(nil)
}
