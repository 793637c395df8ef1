package store

import "sync/atomic"

// DurableCounts are how many durable write steps a store has taken since
// it was opened. Commits are write transactions that committed; every
// writer connection runs synchronous=FULL in WAL mode, so each commit
// costs SQLite one fsync of the -wal file. Fsyncs adds the explicit
// fsyncs the store issues itself (artifact files and their directories),
// so Commits+Fsyncs is the number of sync barriers paid. Checkpoints
// (boundWAL) are not counted: they are amortised, not per commit.
type DurableCounts struct {
	Commits int64 `json:"commits"`
	Fsyncs  int64 `json:"fsyncs"`
}

// Syncs is the total number of sync barriers: one per commit plus the
// explicit fsyncs.
func (c DurableCounts) Syncs() int64 { return c.Commits + c.Fsyncs }

// Sub returns the counts taken since an earlier reading.
func (c DurableCounts) Sub(before DurableCounts) DurableCounts {
	return DurableCounts{Commits: c.Commits - before.Commits, Fsyncs: c.Fsyncs - before.Fsyncs}
}

// durableCounter is two atomic counters: cheap enough to stay on in
// production (a bench reads it from a live process), and read without
// the write lock.
type durableCounter struct{ commits, fsyncs atomic.Int64 }

func (d *durableCounter) commit() { d.commits.Add(1) }
func (d *durableCounter) fsync()  { d.fsyncs.Add(1) }

// Durable returns the store's durable write counts so far.
func (s *Store) Durable() DurableCounts {
	return DurableCounts{Commits: s.durable.commits.Load(), Fsyncs: s.durable.fsyncs.Load()}
}
