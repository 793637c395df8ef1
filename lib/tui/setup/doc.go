// Package setup is the state machine of the first-run welcome and setup
// flow (PRD §26.1): which settings each step asks for, how a key press
// edits, validates and moves between them, the redacted summary, and the
// .fluzo text it produces. Every field is a key of the one settings
// registry (lib/config): its label comes from here, but its type, range,
// default and validation come from config.Lookup, config.ParseValue and
// the registry's cross-field checks, so there is no second schema.
//
// The package does no I/O. Writing the file, adding the git exclusion,
// recording consent and listing the endpoint's models happen through the
// Seam the caller injects (lib/cli/tui wires the real ones); the flow
// only decides when, and model discovery is requested as an Effect so the
// caller can run it off the UI goroutine and hand the answer back with
// Discovered. Nothing contacts the endpoint unless the person presses the
// discovery key.
package setup
