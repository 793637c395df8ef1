// Package agent is Fluzo's native agent runtime: the loop of DESIGN §8 that
// turns a request into a verified change. It owns the initial context and
// its prompt receipt, compaction planning, loop detection, the
// verification contract and step-limit finalization, and drives the store,
// policy, provider and tool packages through small seams so that each
// concern stays testable on its own.
//
// The workspace the task changes is reached only through the tool
// backend (the Tools seam): its tools act on it and its read-only queries
// answer every read the runtime makes (baseline, file versions, the
// verification fingerprint, AGENTS.md, git state, line counts). The
// backend is the local fluzo-tool or the command tools.backend names, so
// a remote one is the same code path; the store, policy, provider and
// consent stay with the owner.
package agent
