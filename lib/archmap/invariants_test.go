package archmap

import (
	"bufio"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Invariant is one row of the "## Invariants" table: its number, and the
// tests that prove it (Go test functions and testscripts), or that it is
// not yet implemented.
type Invariant struct {
	Line        int
	Number      int
	Tests       []string
	Scripts     []string
	NotYetBuilt bool
}

var (
	invariantRow = regexp.MustCompile(`^\| (\d+) \|`)
	testName     = regexp.MustCompile("`((?:Test|Fuzz|Benchmark)[A-Za-z0-9_]+)`")
	scriptName   = regexp.MustCompile("`([a-z0-9_]+\\.txtar)`")
)

// ParseInvariants reads the invariants table.
func ParseInvariants(doc string) []Invariant {
	var out []Invariant
	in := false
	sc := bufio.NewScanner(strings.NewReader(doc))
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if strings.HasPrefix(line, "## ") {
			in = strings.HasPrefix(line, "## Invariants")
			continue
		}
		m := invariantRow.FindStringSubmatch(line)
		if !in || m == nil {
			continue
		}
		num, _ := strconv.Atoi(m[1])
		inv := Invariant{Line: n, Number: num, NotYetBuilt: strings.Contains(line, "not yet implemented")}
		for _, t := range testName.FindAllStringSubmatch(line, -1) {
			inv.Tests = append(inv.Tests, t[1])
		}
		for _, s := range scriptName.FindAllStringSubmatch(line, -1) {
			inv.Scripts = append(inv.Scripts, s[1])
		}
		out = append(out, inv)
	}
	return out
}

// InvariantGaps reports invariants 1..count that are missing, that name
// no test and are not declared unimplemented, or that name a test or
// script that does not exist (tests: Go test names; scripts: file names
// under testscripts/).
func InvariantGaps(invs []Invariant, count int, tests, scripts map[string]bool) []string {
	var out []string
	seen := map[int]bool{}
	for _, inv := range invs {
		seen[inv.Number] = true
		if len(inv.Tests)+len(inv.Scripts) == 0 && !inv.NotYetBuilt {
			out = append(out, fmt.Sprintf("docs/ARCHITECTURE.md:%d: invariant %d names no test; name the tests that prove it, or say 'not yet implemented: issue N'", inv.Line, inv.Number))
		}
		for _, t := range inv.Tests {
			if !tests[t] {
				out = append(out, fmt.Sprintf("docs/ARCHITECTURE.md:%d: invariant %d names %s, but no such test function exists: fix the name", inv.Line, inv.Number, t))
			}
		}
		for _, s := range inv.Scripts {
			if !scripts[s] {
				out = append(out, fmt.Sprintf("docs/ARCHITECTURE.md:%d: invariant %d names testscripts/%s, which does not exist: fix the name", inv.Line, inv.Number, s))
			}
		}
	}
	for i := 1; i <= count; i++ {
		if !seen[i] {
			out = append(out, fmt.Sprintf("docs/ARCHITECTURE.md: invariant %d has no row in the '## Invariants' table", i))
		}
	}
	return out
}
