// Package observe reconstructs what happened from a workspace's durable
// records, as typed data: Diagnose gathers one task's attempts,
// operations, failures, usage, cost and telemetry; Replay streams its
// timeline; EvalRecords, NewDataset and Report build Laya evaluation
// datasets; AddLabel and Labels keep human labels in the store's label
// log. It reads the store read-only (labels go to their own file), never
// executes anything, and never prints: fluzo-observe (lib/cli/observe),
// the agent's port and the TUI present its values. Stored text is
// returned as stored; escaping it for a terminal is the presenter's job.
// Unknown is unknown: usage and cost that were not reported are nil or
// counted as unknown, never zero.
package observe
