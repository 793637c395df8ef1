package config

import "testing"

// TestBadSchemaVersionIsOneDiagnostic: a declared but unsupported or
// mistyped schema_version is reported once, as what it is; it must not
// also be reported as missing.
func TestBadSchemaVersionIsOneDiagnostic(t *testing.T) {
	for _, text := range []string{"schema_version = 9\n", "schema_version = \"1\"\n", "schema_version = 0\n"} {
		ds := diagnose(t, text)
		if len(ds) != 1 || ds[0].Key != "schema_version" || ds[0].Line != 1 {
			t.Errorf("%q: diagnostics %v, want exactly one for schema_version at line 1", text, ds)
		}
	}
}
