package archmap

import (
	"fmt"
	"strings"
)

// Leaves are packages that import nothing from Fluzo: the vocabulary
// (lib/core, which also does no I/O) and the terminal-safety function
// every presenter shares (lib/termsafe).
var Leaves = []string{"lib/core", "lib/termsafe"}

// TUIForbidden are the packages lib/tui must not reach, directly or
// through another package: the TUI sees only the port's records.
var TUIForbidden = []string{"lib/agent", "lib/store", "lib/provider", "lib/sim", "lib/tools"}

// RuntimeBinary must never link the simulator: a test double in the
// runtime could answer for a real model.
const RuntimeBinary, Simulator = "cmd/fluzo-agent", "lib/sim"

// LayeringViolations checks the rules of docs/ARCHITECTURE.md "Layering"
// that hold whatever the code map says. Each violation says what to fix.
func LayeringViolations(g Graph) []string {
	var out []string
	for _, pkg := range g.Packages() {
		for _, leaf := range Leaves {
			if pkg == leaf && len(g[pkg]) > 0 {
				out = append(out, fmt.Sprintf("%s must import nothing from Fluzo, but imports %s", pkg, strings.Join(g[pkg], ", ")))
			}
		}
		if Under(pkg, "lib/tui") {
			for _, bad := range TUIForbidden {
				if chain := g.Path(pkg, bad); chain != nil {
					out = append(out, fmt.Sprintf("%s reaches %s (%s): the TUI sees only port records; take the data from lib/port instead", pkg, bad, strings.Join(chain, " → ")))
				}
			}
		}
		if strings.HasPrefix(pkg, "lib/") && !Under(pkg, "lib/cli") {
			for _, imp := range g[pkg] {
				if Under(imp, "lib/cli") {
					out = append(out, fmt.Sprintf("%s imports %s: the library never depends on a command tree; move what it needs out of lib/cli", pkg, imp))
				}
			}
		}
		if pkg == RuntimeBinary {
			if chain := g.Path(pkg, Simulator); chain != nil {
				out = append(out, fmt.Sprintf("%s links %s (%s): the runtime never contains the simulator; talk to fluzo-sim across a process boundary (lib/demo)", pkg, Simulator, strings.Join(chain, " → ")))
			}
		}
		if strings.HasPrefix(pkg, "cmd/") {
			if len(g[pkg]) != 1 || !Under(g[pkg][0], "lib/cli") {
				out = append(out, fmt.Sprintf("%s must import exactly its lib/cli package (main.go is one line), but imports %v", pkg, g[pkg]))
			}
		}
	}
	return out
}
