package tools

import (
	"flag"
	"os"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/schemas.golden.json")

// TestSchemasGolden pins the model-visible schemas: a change to a tool's
// description or parameters changes what every model sees, so it must be
// a reviewed change to testdata/schemas.golden.json (go test -update).
func TestSchemasGolden(t *testing.T) {
	got, err := SchemasJSON()
	if err != nil {
		t.Fatal(err)
	}
	const golden = "testdata/schemas.golden.json"
	if *update {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Fatalf("schemas differ from %s; review the change and run go test ./lib/tools -run Golden -update", golden)
	}
}

func TestEverySchemaMatchesItsArguments(t *testing.T) {
	for _, s := range Schemas() {
		if s.Type != "function" || s.Function.Description == "" {
			t.Errorf("%s: incomplete schema", s.Function.Name)
		}
		if s.Function.Parameters["additionalProperties"] != false {
			t.Errorf("%s: parameters must be a closed object", s.Function.Name)
		}
		if _, ok := toolByName[s.Function.Name]; !ok {
			t.Errorf("%s: schema without a tool", s.Function.Name)
		}
	}
}
