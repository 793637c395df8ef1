// Package share exposes the bundled data files that binaries need at run
// time without a checkout: the Rust acceptance fixture and the demo
// scenarios. go:embed cannot reach parent directories, so the embedding
// lives here beside the files.
package share

import "embed"

// Fixtures holds share/fixtures/rust-wordcount (including its .gitignore).
// The Go fixture is a separate module and is read from the checkout by tests.
//
//go:embed all:fixtures/rust-wordcount
var Fixtures embed.FS

// RustFixture is the directory of the Rust fixture inside Fixtures.
const RustFixture = "fixtures/rust-wordcount"

// Scenarios holds the simulator scenarios of the demo.
//
//go:embed scenarios/demo-*.json
var Scenarios embed.FS

// DemoScenario is the scenario fluzo demo runs.
const DemoScenario = "scenarios/demo-rust.json"
