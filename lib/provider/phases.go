package provider

import (
	"context"
	"sync"
	"time"
)

// phaseWatch enforces the per-attempt phase timeouts by cancelling the
// attempt's context with a cause that names the phase.
//
// Streaming: the header timer runs until headers arrive; the first-output
// timer until the first meaningful delta. The idle timer starts at that
// first output and is reset by every data event — keep-alive comments are
// not progress (PRD §43.1), so a server that only sends keep-alives after
// output began hits the idle timeout. Without streaming, the idle timer
// starts at the headers and any body bytes reset it.
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

// headers marks the end of the header phase. Without a first-output phase
// (no streaming) the idle timer starts now.
func (w *phaseWatch) headers() {
	w.header.Stop()
	if w.firstOutput == nil {
		w.startIdle()
	}
}

func (w *phaseWatch) startIdle() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.idle == nil && !w.stopped {
		w.idle = time.AfterFunc(w.idleAfter, w.expire(ClassTimeoutIdle))
	}
}

// touch resets the idle timer once it runs.
func (w *phaseWatch) touch() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.idle != nil && !w.stopped {
		w.idle.Reset(w.idleAfter)
	}
}

// output marks the first meaningful output: the first-output phase ends
// and the idle phase begins.
func (w *phaseWatch) output() {
	if w.firstOutput != nil {
		w.firstOutput.Stop()
	}
	w.startIdle()
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
