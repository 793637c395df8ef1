package agent

import (
	"os"
	"strings"
	"testing"
)

// The scripted edits carry the version of the fixture file they edit; a
// fixture change must come with the scenario change.
func TestBundledScenariosMatchTheirFixtures(t *testing.T) {
	for scenario, file := range map[string]string{
		"../../share/scenarios/demo-rust.json": "../../share/fixtures/rust-wordcount/src/lib.rs",
		"../../share/scenarios/demo-go.json":   "../../share/fixtures/go-wordcount/wordcount.go",
	} {
		sc, err := os.ReadFile(scenario)
		if err != nil {
			t.Fatal(err)
		}
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(sc), `"expect_version": "`+version(string(src))+`"`) {
			t.Errorf("%s does not carry the version of %s", scenario, file)
		}
	}
}
