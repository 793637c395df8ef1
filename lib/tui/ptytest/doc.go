// Package ptytest drives the real fluzo-tui binary through a pseudo
// terminal, against a real "fluzo-agent serve" (fluzo-tui's own child) and
// the fluzo-sim binary, and reads the exact bytes the TUI writes to its
// terminal. Its tests check what only the byte stream can show: the
// terminal modes are restored on every way out, and model text never
// smuggles a control sequence through. Its benchmarks are the PTY half of
// "scripts/bench tui" (first frame, idle RSS and CPU, input-to-screen
// latency under a stream). The package has no non-test code beyond this
// comment.
package ptytest
