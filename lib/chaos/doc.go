// Package chaos holds the crash-consistency harness (issue 12 item 8): a
// test, off unless FLUZO_CHAOS=N is set, that runs N seeded agent runs
// against the simulator, SIGKILLs the agent, its tool child, its process
// group or its whole process tree at a seeded moment, and then checks the
// store, the workspace and the process table for every crash invariant.
// Its stability cohort (FLUZO_STABILITY=N, PRD §49.3) kills nothing: it
// runs seeded variants with handled outcomes and counts unexpected deaths,
// panics and broken invariants. The package has no non-test code; see
// chaos_test.go and stability_test.go.
package chaos
