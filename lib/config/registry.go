package config

import (
	"sort"
	"strings"
)

// Kind is the value type of a setting.
type Kind string

const (
	KindBool      Kind = "bool"
	KindInt       Kind = "int"
	KindFloat     Kind = "float"
	KindString    Kind = "string"
	KindEnum      Kind = "enum"
	KindStrings   Kind = "string_list"
	KindStringMap Kind = "string_map"
)

// Privacy says how sensitive a setting's value is. It drives redaction in
// displays and telemetry and which changes need user review (PRD §26).
type Privacy string

const (
	// PrivacyPublic values are harmless preferences.
	PrivacyPublic Privacy = "public"
	// PrivacyInfrastructure values reveal infrastructure (URLs, model and
	// pool names) but are not secrets.
	PrivacyInfrastructure Privacy = "infrastructure"
	// PrivacyReference values name where a secret lives (an environment
	// variable or an auth.toml entry), never the secret itself.
	PrivacyReference Privacy = "secret_reference"
	// PrivacySecurity values change what may run or leave the machine
	// (policy, grants, destinations, content export) and need user review.
	PrivacySecurity Privacy = "security"
)

// Apply says when a saved change takes effect (arch §10.1).
type Apply string

const (
	// ApplyLive presentation preferences take effect immediately.
	ApplyLive Apply = "live"
	// ApplyFuture changes are defaults for work started afterwards.
	ApplyFuture Apply = "future"
	// ApplySafeBoundary changes reach active work only through an explicit
	// apply at a safe boundary (budgets, slots); consumption never resets.
	ApplySafeBoundary Apply = "safe_boundary"
	// ApplyRestart changes need a new runtime process.
	ApplyRestart Apply = "restart"
)

// Setting describes one key of the .fluzo schema. Keys inside a
// collection ("models", "capacity_pools") use "*" for the entry id, e.g.
// "models.*.max_in_flight".
type Setting struct {
	Key         string   `json:"key"`
	Kind        Kind     `json:"type"`
	Unit        string   `json:"unit,omitempty"`
	Default     any      `json:"default"`
	HasRange    bool     `json:"-"`
	Min         float64  `json:"min,omitempty"`
	Max         float64  `json:"max,omitempty"`
	Options     []string `json:"options,omitempty"`
	Description string   `json:"description"`
	Privacy     Privacy  `json:"privacy"`
	Apply       Apply    `json:"apply"`
}

// Table is the TOML table a setting lives in ("" for top-level keys) and
// Name its last segment.
func (s Setting) Table() string {
	if i := strings.LastIndexByte(s.Key, '.'); i >= 0 {
		return s.Key[:i]
	}
	return ""
}

// Name is the key's last segment.
func (s Setting) Name() string { return s.Key[strings.LastIndexByte(s.Key, '.')+1:] }

// ValidRange describes the valid values for diagnostics and documentation.
func (s Setting) ValidRange() string {
	switch {
	case len(s.Options) > 0:
		return "one of " + quoteJoin(s.Options)
	case s.HasRange && s.Kind == KindFloat:
		return "a number from " + formatFloat(s.Min) + " to " + formatFloat(s.Max)
	case s.HasRange:
		return "an integer from " + formatInt(int64(s.Min)) + " to " + formatInt(int64(s.Max))
	case s.Kind == KindBool:
		return "true or false"
	case s.Kind == KindStrings:
		return "an array of strings"
	case s.Kind == KindStringMap:
		return "a table of string values"
	}
	return "a string"
}

// Collection is a schema-defined table of named entries, such as the
// [models.<id>] tables. DefaultEntries are the entries present when the
// configuration declares none; declaring any entry replaces them all.
type Collection struct {
	Name           string
	DefaultEntries []DefaultEntry
}

// DefaultEntry is one built-in collection entry with the fields that
// differ from the per-field defaults.
type DefaultEntry struct {
	ID     string
	Fields map[string]any
}

var (
	byKey       map[string]*Setting
	collections = map[string]*Collection{}
)

func init() {
	byKey = make(map[string]*Setting, len(schema))
	for i := range schema {
		byKey[schema[i].Key] = &schema[i]
	}
	for i := range schemaCollections {
		collections[schemaCollections[i].Name] = &schemaCollections[i]
	}
}

// Settings returns every setting in schema order.
func Settings() []Setting { return append([]Setting(nil), schema...) }

// Lookup returns the setting governing a concrete key such as
// "harness.max_turns" or "models.coder.max_in_flight".
func Lookup(key string) (Setting, bool) {
	if s, ok := byKey[key]; ok && !strings.Contains(key, "*") {
		return *s, true
	}
	coll, id, field, ok := splitCollectionKey(key)
	if !ok || id == "" {
		return Setting{}, false
	}
	s, ok := byKey[coll+".*."+field]
	if !ok {
		return Setting{}, false
	}
	return *s, true
}

// splitCollectionKey splits "models.coder.base_url" into its collection,
// entry id and field. A collection's name may itself be dotted
// ("mcp.servers.fs.command").
func splitCollectionKey(key string) (coll, id, field string, ok bool) {
	for name := range collections {
		if !strings.HasPrefix(key, name+".") {
			continue
		}
		rest := key[len(name)+1:]
		i := strings.LastIndexByte(rest, '.')
		if i < 0 {
			return name, rest, "", true
		}
		return name, rest[:i], rest[i+1:], true
	}
	return "", "", "", false
}

// collectionFields returns the field settings of a collection in order.
func collectionFields(coll string) []Setting {
	var out []Setting
	prefix := coll + ".*."
	for _, s := range schema {
		if strings.HasPrefix(s.Key, prefix) {
			out = append(out, s)
		}
	}
	return out
}

// tableNames lists every fixed (non-collection) table name, sorted.
func tableNames() []string {
	seen := map[string]bool{}
	for _, s := range schema {
		if t := s.Table(); t != "" && !strings.Contains(t, "*") {
			seen[t] = true
		}
	}
	var out []string
	for t := range seen {
		out = append(out, t)
	}
	sort.Strings(out)
	return out
}

// collectionParents lists the tables that only hold dotted collections
// ("mcp" of "mcp.servers"), so the loader descends into them.
func collectionParents() []string {
	var out []string
	for name := range collections {
		for i := strings.IndexByte(name, '.'); i >= 0; i = nextDot(name, i) {
			out = append(out, name[:i])
		}
	}
	return out
}

func nextDot(s string, i int) int {
	j := strings.IndexByte(s[i+1:], '.')
	if j < 0 {
		return -1
	}
	return i + 1 + j
}

func quoteJoin(opts []string) string {
	q := make([]string, len(opts))
	for i, o := range opts {
		q[i] = `"` + o + `"`
	}
	return strings.Join(q, ", ")
}
