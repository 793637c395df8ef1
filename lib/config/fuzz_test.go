package config

import (
	"strings"
	"testing"
)

// FuzzParse: any input yields a configuration or typed diagnostics, never
// a panic, and every diagnostic names a problem.
func FuzzParse(f *testing.F) {
	f.Add([]byte(prdExample))
	f.Add(Render(Defaults()))
	f.Add([]byte("schema_version = 1\nharness = [1]\n[models]\ncoder = 3\n"))
	f.Add([]byte("schema_version = 1\n[models.\"a.b\"]\n[capacity_pools.x]\nmax_in_flight = -1\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, err := Parse(data, "f")
		if err == nil {
			return
		}
		ds := Diagnostics(err)
		if len(ds) == 0 {
			t.Fatalf("error without diagnostics: %v", err)
		}
		for _, d := range ds {
			if d.Problem == "" {
				t.Fatalf("empty diagnostic %+v", d)
			}
		}
	})
}

// FuzzSetInText: editing a valid file never produces a file that fails
// to parse as TOML, and never changes the other keys.
func FuzzSetInText(f *testing.F) {
	f.Add(commented, "harness.max_turns", "7")
	f.Add(commented, "tui.notifications.duration_seconds", "9")
	f.Add(prdExample, "tools.shell.env", `{ A = "1" }`)
	f.Add("schema_version = 1\n[tui]\nflags.render_diagnostics = true # c\n", "tui.flags.render_diagnostics", "false")
	f.Fuzz(func(t *testing.T, text, key, value string) {
		before, err := Parse([]byte(text), "f")
		if err != nil {
			return
		}
		s, ok := Lookup(key)
		if !ok || strings.Contains(key, "*") {
			return
		}
		v, problem := ParseValue(s, value)
		if problem != "" {
			return
		}
		out, err := setInText(text, key, FormatValue(v))
		if err != nil {
			return
		}
		after, err := Parse([]byte(out), "f")
		if err != nil {
			if len(Diagnostics(err)) > 0 && !strings.Contains(err.Error(), "syntax") {
				return // a valid edit may break a combination; Save reports it
			}
			t.Fatalf("edit produced invalid TOML: %v\n%s", err, out)
		}
		for _, k := range before.Keys() {
			if k == key {
				continue
			}
			b, _ := before.Lookup(k)
			a, _ := after.Lookup(k)
			if FormatValue(a.Value) != FormatValue(b.Value) {
				t.Fatalf("%s changed from %v to %v editing %s", k, b.Value, a.Value, key)
			}
		}
	})
}
