package archmap

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

const repoRoot = "../.."

func readDoc(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(repoRoot, "docs", "ARCHITECTURE.md"))
	if err != nil {
		t.Fatalf("docs/ARCHITECTURE.md: %v", err)
	}
	return string(b)
}

func readTree(t *testing.T) Graph {
	t.Helper()
	g, err := ReadTree(repoRoot)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := g["lib/core"]; !ok || len(g) < 10 {
		t.Fatalf("the walk found %d packages and no lib/core: wrong root?", len(g))
	}
	return g
}

// The code map lists exactly the packages in the tree, and every import
// is one its package's row allows.
func TestCodeMapMatchesTheTree(t *testing.T) {
	rows, err := ParseCodeMap(readDoc(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, msg := range MapDrift(rows, readTree(t)) {
		t.Error(msg)
	}
}

func TestLayeringRulesHold(t *testing.T) {
	for _, msg := range LayeringViolations(readTree(t)) {
		t.Error(msg)
	}
}

// Every invariant of DESIGN §7 names tests that exist, or says honestly
// that it is not implemented yet.
func TestInvariantsNameRealTests(t *testing.T) {
	invs := ParseInvariants(readDoc(t))
	tests, scripts := map[string]bool{}, map[string]bool{}
	decl := regexp.MustCompile(`(?m)^func ((?:Test|Fuzz|Benchmark)[A-Za-z0-9_]+)\(`)
	filepath.WalkDir(repoRoot, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, "_test.go") {
			return err
		}
		b, err := os.ReadFile(path)
		for _, m := range decl.FindAllStringSubmatch(string(b), -1) {
			tests[m[1]] = true
		}
		return err
	})
	txtar, _ := filepath.Glob(filepath.Join(repoRoot, "testscripts", "*.txtar"))
	for _, p := range txtar {
		scripts[filepath.Base(p)] = true
	}
	if len(tests) < 100 || len(scripts) < 10 {
		t.Fatalf("found %d tests and %d scripts: wrong root?", len(tests), len(scripts))
	}
	for _, msg := range InvariantGaps(invs, 15, tests, scripts) {
		t.Error(msg)
	}
}

// The checkers themselves catch what they are for (a broken rule must
// not pass silently because the checker is blind).
func TestCheckersReportEachKindOfDrift(t *testing.T) {
	g := Graph{
		"cmd/fluzo":         {"lib/cli/front", "lib/store"},
		"lib/cli/front":     {"lib/core"},
		"lib/core":          {"lib/store"},
		"lib/termsafe":      nil,
		"lib/store":         {"lib/core"},
		"lib/observe":       {"lib/store", "lib/cli/runner"},
		"lib/tui/view":      {"lib/observe", "lib/tui/text"},
		"lib/tui/text":      {"lib/termsafe"},
		"lib/tools/confine": {"lib/core"},
		"cmd/fluzo-agent":   {"lib/cli/agent"},
		"lib/cli/agent":     {"lib/agent"},
		"lib/agent":         {"lib/sim"},
	}
	want := []string{
		"lib/core must import nothing from Fluzo, but imports lib/store",
		"lib/tui/view reaches lib/store (lib/tui/view → lib/observe → lib/store)",
		"lib/observe imports lib/cli/runner: the library never depends on a command tree",
		"cmd/fluzo must import exactly its lib/cli package",
		"cmd/fluzo-agent links lib/sim (cmd/fluzo-agent → lib/cli/agent → lib/agent → lib/sim)",
	}
	got := strings.Join(LayeringViolations(g), "\n")
	for _, w := range want {
		if !strings.Contains(got, w) {
			t.Errorf("layering check missed %q in:\n%s", w, got)
		}
	}
	if strings.Contains(got, "lib/tui/text reaches") {
		t.Errorf("lib/tui/text → lib/termsafe is allowed:\n%s", got)
	}
	doc := "# x\n## Code map\n| package | owns | may import |\n| --- | --- | --- |\n" +
		"| `lib/store` | the store | `lib/core` |\n" +
		"| `lib/observe` | history | `lib/store` |\n" +
		"| `lib/tui/...` | wrong: a pattern is not a package | nothing |\n" +
		"| `lib/gone` | removed | nothing |\n" +
		"| `lib/tools/confine` | confinement | `lib/core/...` |\n" +
		"## Next\n| `lib/core` | outside the map | nothing |\n"
	rows, err := ParseCodeMap(doc)
	if err != nil {
		t.Fatal(err)
	}
	drift := strings.Join(MapDrift(rows, g), "\n")
	for _, w := range []string{
		"package lib/core is not in docs/ARCHITECTURE.md: add the row | `lib/core` | what it owns | may import `lib/store` |",
		"docs/ARCHITECTURE.md:8 lists lib/gone, which no longer exists",
		"lib/observe imports lib/cli/runner, which its code-map row (docs/ARCHITECTURE.md:6) does not allow: add `lib/cli/runner`",
	} {
		if !strings.Contains(drift, w) {
			t.Errorf("drift check missed %q in:\n%s", w, drift)
		}
	}
	if strings.Contains(drift, "lib/tools/confine imports") || strings.Contains(drift, "lib/store imports") {
		t.Errorf("allowed imports reported:\n%s", drift)
	}
	if _, err := ParseCodeMap("## Code map\n| `lib/x` | two cells |\n"); err == nil || !strings.Contains(err.Error(), ":2:") {
		t.Errorf("a malformed row must be reported with its line: %v", err)
	}
	invs := ParseInvariants("## Invariants\n| # | rule | proof |\n| 1 | a | `TestReal`, `real.txtar` |\n| 2 | b | `TestGone` |\n| 3 | c | not yet implemented: issue 11 |\n| 4 | d | nothing named |\n")
	gaps := strings.Join(InvariantGaps(invs, 5, map[string]bool{"TestReal": true}, map[string]bool{"real.txtar": true}), "\n")
	for _, w := range []string{"invariant 2 names TestGone, but no such test", "invariant 4 names no test", "invariant 5 has no row"} {
		if !strings.Contains(gaps, w) {
			t.Errorf("invariant check missed %q in:\n%s", w, gaps)
		}
	}
	if strings.Contains(gaps, "invariant 1 ") || strings.Contains(gaps, "invariant 3 ") {
		t.Errorf("good invariants reported:\n%s", gaps)
	}
}
