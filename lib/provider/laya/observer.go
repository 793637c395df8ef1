// Package laya is the Laya shadow observer (PRD §29): at decision points
// of a task it asks the Laya decision model typed questions in the
// background and records the answers, which the loop never reads. It sits
// beside the provider's Laya client, which it drives through an Asker.
package laya

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"sync"
	"time"

	"github.com/josecorral/fluzo/lib/core"
)

// Shadow observer limits and the vocabulary of its records.
const (
	DefaultMaxObservations = 30
	DefaultPauseAfter      = 3
	DefaultObserveTimeout  = 5 * time.Second
	maxObservationSnapshot = 4 << 10
	QuestionClassification = "task_classification"
	QuestionNextAction     = "next_action"
	SkipLimit              = "task_limit_reached"
	SkipPaused             = "paused_after_failures"
	SkipCapacity           = "no_shadow_slot"
)

// NextActions are the choices a next_action question offers.
var NextActions = []string{"continue", "retry", "replan", "ask_user", "abort"}

// Question is one typed question put to the decision model.
type Question struct {
	Type    string   `json:"type"`
	Options []string `json:"options,omitempty"`
}

// Query is what the observer sends: a bounded snapshot and questions.
type Query struct {
	Point       string          `json:"point"`
	Fingerprint string          `json:"fingerprint"`
	Snapshot    json.RawMessage `json:"snapshot"`
	Questions   []Question      `json:"questions"`
}

// Asker sends one query; it is the provider's Laya client.
type Asker func(ctx context.Context, q Query) (json.RawMessage, error)

// Observation is the record of one decision point, whether the question
// was answered, failed or skipped.
type Observation struct {
	Point       string          `json:"point"`
	Fingerprint string          `json:"fingerprint"`
	Questions   []Question      `json:"questions"`
	Answers     json.RawMessage `json:"answers,omitempty"`
	LatencyMS   int64           `json:"latency_ms"`
	Failure     string          `json:"failure,omitempty"`
	Skipped     string          `json:"skipped,omitempty"`
	ActionTaken string          `json:"action_taken"`
}

// Observer asks the Laya decision model questions at decision points in
// the shadow: the loop never waits for it and nothing it answers changes
// what the loop does. It is bounded per task and pauses itself for the
// session after consecutive failures.
type Observer struct {
	Ask Asker
	// Admit takes a shadow slot without waiting; ok=false means skip.
	Admit   func() (release func(), ok bool)
	Record  func(Observation)
	Timeout time.Duration
	Max     int
	// PauseAfter consecutive failures pause the observer for the session.
	PauseAfter int

	mu       sync.Mutex
	sent     int
	failures int
	paused   bool
	wg       sync.WaitGroup
}

// Observe records a decision point. It returns at once; the question, if
// sent, runs in the background.
func (o *Observer) Observe(point string, state any, questions []Question, actionTaken string) {
	// The snapshot is the state the Laya model reads: code in it keeps
	// its "<", ">" and "&" (json.Marshal would send \u003c and the like).
	snap, _ := core.MarshalVerbatim(state)
	if len(snap) > maxObservationSnapshot {
		snap, _ = core.MarshalVerbatim(map[string]any{"truncated": true, "prefix": string(snap[:maxObservationSnapshot])})
	}
	sum := sha256.Sum256(snap)
	ob := Observation{Point: point, Fingerprint: hex.EncodeToString(sum[:8]), Questions: questions, ActionTaken: actionTaken}
	if skip := o.reserve(); skip != "" {
		ob.Skipped = skip
		o.record(ob)
		return
	}
	release, ok := func() {}, true
	if o.Admit != nil {
		release, ok = o.Admit()
	}
	if !ok {
		o.unreserve()
		ob.Skipped = SkipCapacity
		o.record(ob)
		return
	}
	q := Query{Point: point, Fingerprint: ob.Fingerprint, Snapshot: snap, Questions: questions}
	o.wg.Add(1)
	go func() {
		defer o.wg.Done()
		defer release()
		timeout := o.Timeout
		if timeout <= 0 {
			timeout = DefaultObserveTimeout
		}
		ctx, cancel := context.WithTimeout(context.Background(), timeout)
		defer cancel()
		start := time.Now()
		answers, err := o.Ask(ctx, q)
		ob.LatencyMS = time.Since(start).Milliseconds()
		if err == nil && !json.Valid(answers) {
			err = errInvalidAnswer
		}
		if err != nil {
			ob.Failure = failureText(err)
		} else {
			ob.Answers = answers
		}
		o.settle(err != nil)
		o.record(ob)
	}()
}

type observerError string

func (e observerError) Error() string { return string(e) }

const errInvalidAnswer = observerError("the answer is not valid JSON")

func failureText(err error) string {
	if err == context.DeadlineExceeded {
		return "timeout"
	}
	return err.Error()
}

// reserve counts an observation against the task limit, or says why it is
// skipped.
func (o *Observer) reserve() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	max := o.Max
	if max <= 0 {
		max = DefaultMaxObservations
	}
	switch {
	case o.paused:
		return SkipPaused
	case o.sent >= max:
		return SkipLimit
	}
	o.sent++
	return ""
}

func (o *Observer) unreserve() {
	o.mu.Lock()
	o.sent--
	o.mu.Unlock()
}

func (o *Observer) settle(failed bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if !failed {
		o.failures = 0
		return
	}
	o.failures++
	limit := o.PauseAfter
	if limit <= 0 {
		limit = DefaultPauseAfter
	}
	if o.failures >= limit {
		o.paused = true
	}
}

func (o *Observer) record(ob Observation) {
	if o.Record != nil {
		o.Record(ob)
	}
}

// NewTask resets the per-task observation count; a pause after repeated
// failures lasts for the whole session and is not reset.
func (o *Observer) NewTask() {
	o.mu.Lock()
	o.sent = 0
	o.mu.Unlock()
}

// Paused reports whether the observer paused itself after failures.
func (o *Observer) Paused() bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.paused
}

// Wait blocks until questions in flight have finished (shutdown, tests).
func (o *Observer) Wait() { o.wg.Wait() }
