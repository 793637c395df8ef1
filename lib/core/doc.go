// Package core holds Fluzo's vocabulary: identifiers, domain records and
// their state machines, the event envelope, typed errors and exit codes.
//
// It imports nothing from Fluzo and performs no I/O, so every other package
// (and every binary) can share it without pulling in storage or processes.
package core
