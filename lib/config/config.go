package config

import (
	"fmt"
	"sort"
	"strings"
	"time"
)

// Source is where an effective value came from.
type Source string

const (
	SourceDefault Source = "default"
	SourceFile    Source = "file"
	SourceCLI     Source = "cli"
)

// Value is one effective setting with its provenance.
type Value struct {
	Key    string `json:"key"`
	Value  any    `json:"value"`
	Source Source `json:"source,omitempty"`
	File   string `json:"file,omitempty"`
	Line   int    `json:"line,omitempty"`
}

// Config is an effective configuration: every registry key (and every
// field of every collection entry) has a typed value and its provenance.
// A Config is immutable once returned, except through Override before it
// is shared; Save returns a new Config.
type Config struct {
	// Path is the file the configuration was loaded from ("" for defaults).
	Path   string
	values map[string]Value
	ids    map[string][]string
	// loaded identifies the file content this Config was read from, for
	// outside-change detection and rebasing saves.
	loaded Snapshot
	text   []byte
}

// Lookup returns the effective value of a concrete key.
func (c *Config) Lookup(key string) (Value, bool) {
	v, ok := c.values[key]
	return v, ok
}

// Keys returns every concrete key, sorted.
func (c *Config) Keys() []string {
	out := make([]string, 0, len(c.values))
	for k := range c.values {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Values returns every effective value in schema order, collection
// entries in file order at the collection's place.
func (c *Config) Values() []Value {
	var out []Value
	done := map[string]bool{}
	for _, s := range schema {
		coll, _, _, isColl := splitCollectionKey(s.Key)
		if !isColl || !strings.Contains(s.Key, "*") {
			if v, ok := c.values[s.Key]; ok {
				out = append(out, v)
			}
			continue
		}
		if done[coll] {
			continue
		}
		done[coll] = true
		for _, id := range c.ids[coll] {
			for _, f := range collectionFields(coll) {
				if v, ok := c.values[coll+"."+id+"."+f.Name()]; ok {
					out = append(out, v)
				}
			}
		}
	}
	return out
}

func (c *Config) get(key string, kind Kind) any {
	s, ok := Lookup(key)
	if !ok {
		panic(fmt.Sprintf("config: %q is not a registered setting", key))
	}
	if s.Kind != kind && !(kind == KindString && s.Kind == KindEnum) {
		panic(fmt.Sprintf("config: %q is a %s, not a %s", key, s.Kind, kind))
	}
	v, ok := c.values[key]
	if !ok {
		panic(fmt.Sprintf("config: %q has no value (no such collection entry)", key))
	}
	return v.Value
}

// Int returns an integer setting. Accessors panic on a key that is not in
// the registry or of another type: that is a programming error caught by
// any test of the caller, never a user input error.
func (c *Config) Int(key string) int64 { return c.get(key, KindInt).(int64) }

// Float returns a float setting.
func (c *Config) Float(key string) float64 { return c.get(key, KindFloat).(float64) }

// String returns a string or enum setting.
func (c *Config) String(key string) string { return c.get(key, KindString).(string) }

// Bool returns a boolean setting.
func (c *Config) Bool(key string) bool { return c.get(key, KindBool).(bool) }

// Strings returns a copy of a string-list setting.
func (c *Config) Strings(key string) []string {
	return append([]string{}, c.get(key, KindStrings).([]string)...)
}

// StringMap returns a copy of a string-table setting.
func (c *Config) StringMap(key string) map[string]string {
	out, _ := toStringMap(c.get(key, KindStringMap))
	return out
}

// Seconds returns an integer setting measured in seconds as a Duration.
func (c *Config) Seconds(key string) time.Duration {
	return time.Duration(c.Int(key)) * time.Second
}

// Source returns where key's effective value came from.
func (c *Config) Source(key string) Source { return c.values[key].Source }

// IDs returns the entry ids of a collection ("models", "capacity_pools")
// in file order.
func (c *Config) IDs(collection string) []string {
	return append([]string{}, c.ids[collection]...)
}

// Override sets key from command-line text with provenance "cli". It is
// for explicit CLI overrides only; call Validate afterwards.
func (c *Config) Override(key, text string) error {
	s, ok := Lookup(key)
	if !ok {
		return invalid([]Diagnostic{{Key: key, Problem: "unknown setting in a command-line override",
			Valid: "a key listed by 'fluzo-admit config schema'"}})
	}
	if _, exists := c.values[key]; !exists {
		return invalid([]Diagnostic{{Key: key, Problem: "no such collection entry in the configuration",
			Valid: "an id declared in the file"}})
	}
	v, problem := ParseValue(s, text)
	if problem != "" {
		return invalid([]Diagnostic{{Key: key, Problem: problem + " in a command-line override", Valid: s.ValidRange()}})
	}
	c.values[key] = Value{Key: key, Value: v, Source: SourceCLI}
	return nil
}

// Validate re-runs the cross-field checks (after overrides).
func (c *Config) Validate() error {
	ds := &diagnostics{file: c.Path, lines: lineIndex(string(c.text))}
	checkCombinations(c, ds)
	return ds.err()
}

// Text returns the file content this configuration was loaded from.
func (c *Config) Text() []byte { return append([]byte{}, c.text...) }

// Loaded returns the identity and hash of the file as it was loaded.
func (c *Config) Loaded() Snapshot { return c.loaded }

// CarryOverrides copies prev's CLI overrides onto c (a configuration just
// saved or reloaded) and re-validates: overrides stay authoritative for
// the invocation and saved future defaults never silently replace them.
func (c *Config) CarryOverrides(prev *Config) error {
	for k, v := range prev.values {
		if v.Source != SourceCLI {
			continue
		}
		if _, exists := c.values[k]; !exists {
			return invalid([]Diagnostic{{Key: k, Problem: "a command-line override names an entry the file no longer has"}})
		}
		c.values[k] = v
	}
	return c.Validate()
}
