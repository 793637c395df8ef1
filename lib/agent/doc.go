// Package agent is Fluzo's native agent runtime: the loop of DESIGN §8 that
// turns a request into a verified change. It owns the initial context and
// its prompt receipt, compaction planning, loop detection, the
// verification contract and step-limit finalization, and drives the store,
// policy, provider and tool packages through small seams so that each
// concern stays testable on its own.
package agent
