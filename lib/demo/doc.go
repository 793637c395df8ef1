// Package demo prepares and drives the bundled demo (PRD §45.1) from
// outside the runtime: it copies the Rust fixture into a fresh git
// repository, starts fluzo-sim as a child process with the bundled
// scenario, and says how to run fluzo-agent there. It links neither the
// runtime (lib/agent) nor the simulator (lib/sim): the demo talks to both
// across a process boundary, exactly as a user's own setup would, so any
// launcher (the headless "fluzo demo", a terminal UI) can reuse it.
package demo
