package store

import (
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"math/rand/v2"
	"time"

	"github.com/josecorral/fluzo/lib/core"
)

// FixtureSpec shapes a synthetic history. The PRD §49.2 large-history
// fixture is {Messages: 10000, Events: 100000, ArtifactBytes: 256 MiB}.
type FixtureSpec struct {
	Seed          uint64
	Sessions      int
	Messages      int
	Events        int   // total events to reach (raised if the records need more)
	ArtifactBytes int64 // total artifact content, in chunks of at most 1 MiB
	// Running leaves the last N sessions mid-task (task running, attempt
	// running, one operation dispatched), as a live or crashed owner would.
	Running int
}

// FixtureResult reports what was generated.
type FixtureResult struct {
	Sessions      []string `json:"sessions"`
	Tasks         int      `json:"tasks"`
	Messages      int      `json:"messages"`
	Events        int      `json:"events"`
	Artifacts     int      `json:"artifacts"`
	ArtifactBytes int64    `json:"artifact_bytes"`
}

const fixtureChunk = 1 << 20

// Fixture writes a clearly labelled synthetic history (every session has
// synthetic=true) derived from spec.Seed: the same seed gives the same
// shape, content and record IDs (timestamps and event IDs are fresh). It writes in batched transactions.
func (s *Store) Fixture(ctx context.Context, spec FixtureSpec) (FixtureResult, error) {
	var res FixtureResult
	if spec.Sessions <= 0 {
		spec.Sessions = 1
	}
	rng := rand.New(rand.NewPCG(spec.Seed, spec.Seed^0x9e3779b97f4a7c15))
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(spec.Seed%1000) * time.Hour)
	ids := core.NewIDGen(func() time.Time { return base }, rand.NewChaCha8(seedBytes(spec.Seed)))
	refs, err := s.fixtureArtifacts(ctx, rng, spec.ArtifactBytes)
	if err != nil {
		return res, err
	}
	for i := 0; i < spec.Sessions; i++ {
		f := &fixtureSession{s: s, rng: rng, ids: ids, res: &res, n: i, running: i >= spec.Sessions-spec.Running,
			messages: share(spec.Messages, spec.Sessions, i), events: share(spec.Events, spec.Sessions, i)}
		for j, ref := range refs {
			// Artifact 0 is shared by the first two sessions so purge has
			// something to keep; the rest belong to one session each.
			if j%spec.Sessions == i || (j == 0 && i == 1) {
				f.artifacts = append(f.artifacts, ref)
			}
		}
		if err := f.write(ctx); err != nil {
			return res, err
		}
	}
	res.Artifacts = len(refs)
	for _, r := range refs {
		res.ArtifactBytes += r.Size
	}
	return res, nil
}

func seedBytes(seed uint64) [32]byte {
	var b [32]byte
	binary.LittleEndian.PutUint64(b[:], seed)
	return b
}

// share splits total across n parts, giving the remainder to the first.
func share(total, n, i int) int {
	if i == 0 {
		return total/n + total%n
	}
	return total / n
}

func (s *Store) fixtureArtifacts(ctx context.Context, rng *rand.Rand, total int64) ([]ArtifactRef, error) {
	var refs []ArtifactRef
	for left := total; left > 0; left -= fixtureChunk {
		size := min(left, fixtureChunk)
		ref, err := s.PutArtifact(ctx, io.LimitReader(randReader{rng}, size), "application/octet-stream")
		if err != nil {
			return nil, err
		}
		refs = append(refs, ref)
	}
	return refs, nil
}

type randReader struct{ rng *rand.Rand }

func (r randReader) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(r.rng.Uint32())
	}
	return len(p), nil
}

type fixtureSession struct {
	s                *Store
	rng              *rand.Rand
	ids              *core.IDGen
	res              *FixtureResult
	n                int
	messages, events int
	running          bool
	artifacts        []ArtifactRef
	session, task    string
	attempt          string
	written          int
}

var fixtureTools = []string{"fs.read", "fs.write", "search.grep", "proc.run", "git.status", "git.diff"}

// write creates one session: a task with an attempt, messages, and tool
// calls in batches until the event budget is spent, then ends it.
func (f *fixtureSession) write(ctx context.Context) error {
	err := f.s.Write(ctx, func(tx *Tx) error {
		ses := core.Session{ID: f.ids.New(core.KindSession), Title: fmt.Sprintf("synthetic session %d", f.n+1), Synthetic: true}
		if _, err := tx.GetSession(ctx, ses.ID); err == nil {
			return core.Errorf(core.CodeInvalidRequest, "this store already holds the fixture of this seed (session %s)", ses.ID).
				WithHint("pass another --seed, or purge the synthetic sessions first")
		}
		if _, err := tx.CreateSession(&ses); err != nil {
			return err
		}
		f.session = ses.ID
		task := core.Task{ID: f.ids.New(core.KindTask), SessionID: ses.ID, Request: fmt.Sprintf("synthetic task %d: fix the failing test", f.n+1)}
		if _, err := tx.CreateTask(&task); err != nil {
			return err
		}
		f.task = task.ID
		tx.SetTaskState(task.ID, core.TaskReady, "")
		tx.SetTaskState(task.ID, core.TaskRunning, "")
		att := core.Attempt{ID: f.ids.New(core.KindAttempt), TaskID: task.ID, TraceID: fmt.Sprintf("%032x", f.rng.Uint64())}
		_, err := tx.StartAttempt(&att)
		f.attempt = att.ID
		f.written += 5
		for _, ref := range f.artifacts {
			if err := tx.AttachArtifact(ses.ID, ref); err != nil {
				return err
			}
		}
		return err
	})
	if err != nil {
		return err
	}
	for m := 0; m < f.messages; {
		batch := min(f.messages-m, 2000)
		if err := f.s.Write(ctx, func(tx *Tx) error { return f.addMessages(tx, m, batch) }); err != nil {
			return err
		}
		m += batch
	}
	const closing = 2
	for f.written+5+closing <= f.events {
		if err := f.s.Write(ctx, func(tx *Tx) error {
			for i := 0; i < 400 && f.written+5+closing <= f.events; i++ {
				if err := f.addOperation(tx); err != nil {
					return err
				}
			}
			return nil
		}); err != nil {
			return err
		}
	}
	if f.running {
		return f.leaveRunning(ctx)
	}
	err = f.s.Write(ctx, func(tx *Tx) error {
		for f.written+closing < f.events {
			if _, err := tx.Append(core.Event{ID: f.ids.New(core.KindEvent), Type: core.EvBudget, Session: f.session, Task: f.task, Attempt: f.attempt,
				Data: []byte(fmt.Sprintf(`{"synthetic":true,"tokens":%d}`, f.rng.IntN(4000)))}); err != nil {
				return err
			}
			f.written++
		}
		if _, _, err := tx.EndAttempt(f.attempt, core.AttemptCompleted, ""); err != nil {
			return err
		}
		_, _, err := tx.SetTaskState(f.task, core.TaskCompleted, "")
		f.written += closing
		return err
	})
	f.res.Sessions = append(f.res.Sessions, f.session)
	f.res.Tasks++
	f.res.Messages += f.messages
	f.res.Events += f.written
	return err
}

func (f *fixtureSession) addMessages(tx *Tx, from, n int) error {
	roles := []string{"user", "assistant", "tool"}
	for i := from; i < from+n; i++ {
		m := Message{ID: f.ids.New(core.KindMessage), SessionID: f.session, TaskID: f.task, AttemptID: f.attempt,
			Role: roles[i%3], Content: fmt.Sprintf("synthetic message %d (%08x)", i, f.rng.Uint32())}
		if _, err := tx.AddMessage(&m); err != nil {
			return err
		}
		f.written++
	}
	return nil
}

func (f *fixtureSession) addOperation(tx *Tx) error {
	op := core.Operation{ID: f.ids.New(core.KindOperation), AttemptID: f.attempt, Tool: fixtureTools[f.rng.IntN(len(fixtureTools))],
		CallID: fmt.Sprintf("call_%08x", f.rng.Uint32()), Args: []byte(`{"synthetic":true}`)}
	if _, err := tx.CreateOperation(&op); err != nil {
		return err
	}
	result := OperationUpdate{Result: []byte(`{"ok":true}`)}
	if len(f.artifacts) > 0 {
		result.Artifact = f.artifacts[f.rng.IntN(len(f.artifacts))].SHA256
	}
	steps := []struct {
		to core.OperationState
		u  OperationUpdate
	}{
		{core.OpAuthorized, OperationUpdate{Decision: "allow", Rule: "fixture"}},
		{core.OpIntentCommitted, OperationUpdate{}},
		{core.OpDispatched, OperationUpdate{}},
		{core.OpSucceeded, result},
	}
	for _, st := range steps {
		if _, _, err := tx.SetOperationState(op.ID, st.to, st.u); err != nil {
			return err
		}
	}
	f.written += 5
	return nil
}

// leaveRunning ends a session mid-operation: intent committed and
// dispatched, no outcome, attempt and task still running.
func (f *fixtureSession) leaveRunning(ctx context.Context) error {
	err := f.s.Write(ctx, func(tx *Tx) error {
		op := core.Operation{ID: f.ids.New(core.KindOperation), AttemptID: f.attempt, Tool: "proc.run", Args: []byte(`{"synthetic":true}`)}
		if _, err := tx.CreateOperation(&op); err != nil {
			return err
		}
		for _, to := range []core.OperationState{core.OpAuthorized, core.OpIntentCommitted, core.OpDispatched} {
			if _, _, err := tx.SetOperationState(op.ID, to, OperationUpdate{}); err != nil {
				return err
			}
		}
		f.written += 4
		return nil
	})
	f.res.Sessions = append(f.res.Sessions, f.session)
	f.res.Tasks++
	f.res.Messages += f.messages
	f.res.Events += f.written
	return err
}
