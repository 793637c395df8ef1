package config

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/BurntSushi/toml"
	"github.com/josecorral/fluzo/lib/core"
)

// FileName is the project configuration file in a workspace root.
const FileName = ".fluzo"

// SchemaVersion is the only schema_version this build reads.
const SchemaVersion = 1

// Options selects and adjusts the configuration of one invocation.
type Options struct {
	// Workspace is the workspace root; its .fluzo is used unless File is set.
	Workspace string
	// File is an explicit --config file scoped to the workspace.
	File string
	// Overrides are explicit CLI overrides as KEY=VALUE.
	Overrides []string
}

// Open loads the selected configuration file, applies the CLI overrides
// and validates the result. A missing file is configuration_required.
func Open(o Options) (*Config, error) {
	path := o.File
	if path == "" {
		path = filepath.Join(o.Workspace, FileName)
	}
	cfg, err := Load(path)
	if err != nil {
		return nil, err
	}
	for _, ov := range o.Overrides {
		key, text, ok := strings.Cut(ov, "=")
		if !ok {
			// Exit 3 like every other bad --set, so a script sees one
			// status for "the overrides are wrong".
			return nil, core.Errorf(core.CodeInvalidConfiguration, "override %q is not KEY=VALUE", ov).
				WithHint("write e.g. --set harness.max_turns=10").With("override", ov)
		}
		if err := cfg.Override(strings.TrimSpace(key), strings.TrimSpace(text)); err != nil {
			return nil, err
		}
	}
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	return cfg, nil
}

// Load reads and validates a configuration file.
func Load(path string) (*Config, error) {
	data, snap, err := readFile(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, core.Wrap(err, core.CodeConfigurationRequired, "no configuration file at "+path).
				WithHint("run 'fluzo init' (fluzo-admit config init) to write one with every default")
		}
		return nil, core.Wrap(err, core.CodeInvalidConfiguration, "cannot read "+path).
			WithHint("check that the file exists and is readable")
	}
	cfg, err := Parse(data, path)
	if err != nil {
		return nil, err
	}
	cfg.loaded = snap
	return cfg, nil
}

// Defaults returns the built-in configuration with every default.
func Defaults() *Config {
	cfg, err := Parse([]byte("schema_version = 1\n"), "")
	if err != nil {
		panic("config: built-in defaults do not validate: " + err.Error())
	}
	return cfg
}

// Parse validates TOML text (name is the file name used in diagnostics)
// and returns the effective configuration with defaults filled in.
func Parse(data []byte, name string) (*Config, error) {
	raw := map[string]any{}
	md, err := toml.Decode(string(data), &raw)
	if err != nil {
		return nil, invalid([]Diagnostic{syntaxDiagnostic(err, name, data)})
	}
	text := string(data)
	ds := &diagnostics{file: name, lines: lineIndex(text)}
	cfg := &Config{Path: name, values: map[string]Value{}, ids: map[string][]string{}, text: data}
	l := loader{cfg: cfg, ds: ds, order: keyOrder(md)}
	l.walk(raw)
	l.fillDefaults()
	if _, declared := raw["schema_version"]; !declared {
		ds.add("schema_version", "1", "the file does not declare schema_version")
	}
	if len(ds.list) == 0 {
		checkCombinations(cfg, ds)
	}
	if err := ds.err(); err != nil {
		return nil, err
	}
	return cfg, nil
}

func syntaxDiagnostic(err error, name string, data []byte) Diagnostic {
	var pe toml.ParseError
	if errors.As(err, &pe) {
		return Diagnostic{File: name, Line: syntaxErrorLine(pe, data), Key: pe.LastKey,
			Problem: "TOML syntax error: " + pe.Message, Valid: "TOML 1.0"}
	}
	return Diagnostic{File: name, Problem: "cannot parse TOML", Valid: "TOML 1.0"}
}

// syntaxErrorLine is the line the user must fix. The parser counts a line
// as ended once it reads its newline, so an error found at a newline (an
// unclosed "[harness") would name the next line; the byte offset says
// which line that newline ends.
func syntaxErrorLine(pe toml.ParseError, data []byte) int {
	start := pe.Position.Start
	if start < 0 || start > len(data) {
		return pe.Position.Line
	}
	return bytes.Count(data[:start], []byte("\n")) + 1
}

// keyOrder maps each key to its position in the file so collection
// entries keep file order.
func keyOrder(md toml.MetaData) map[string]int {
	order := map[string]int{}
	for i, k := range md.Keys() {
		order[strings.Join(k, ".")] = i
	}
	return order
}

type loader struct {
	cfg   *Config
	ds    *diagnostics
	order map[string]int
}

// idPattern is an identifier's alphabet; validID adds the length bound (a
// bounded repeat in the pattern would be compiled at every start).
var idPattern = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)

// validID: 1 to 64 of [A-Za-z0-9_-].
func validID(s string) bool { return len(s) <= 64 && idPattern.MatchString(s) }

func (l *loader) walk(raw map[string]any) {
	for _, k := range sortedKeys(raw, "", l.order) {
		if _, isColl := collections[k]; isColl {
			l.collection(k, raw[k])
			continue
		}
		l.fixed(k, raw[k])
	}
}

// fixed handles a key of a fixed table: a setting, a table to descend
// into, or an unknown key.
func (l *loader) fixed(key string, v any) {
	if _, isColl := collections[key]; isColl {
		l.collection(key, v)
		return
	}
	if s, ok := byKey[key]; ok {
		l.set(*s, key, v)
		return
	}
	if isTablePrefix(key) {
		m, ok := v.(map[string]any)
		if !ok {
			l.ds.add(key, "a table ["+key+"]", "expected a table, found %s", tomlTypeName(v))
			return
		}
		for _, k := range sortedKeys(m, key+".", l.order) {
			l.fixed(key+"."+k, m[k])
		}
		return
	}
	l.unknown(key)
}

func (l *loader) collection(name string, v any) {
	entries, ok := v.(map[string]any)
	if !ok {
		l.ds.add(name, "[[tables]] "+name+".<id>", "expected a table of entries, found %s", tomlTypeName(v))
		return
	}
	for _, id := range sortedKeys(entries, name+".", l.order) {
		prefix := name + "." + id
		if !validID(id) {
			l.ds.add(prefix, "letters, digits, '_' and '-'", "entry id %q is not a plain name", id)
			continue
		}
		fields, ok := entries[id].(map[string]any)
		if !ok {
			l.ds.add(prefix, "a table ["+prefix+"]", "expected a table, found %s", tomlTypeName(entries[id]))
			continue
		}
		l.cfg.ids[name] = append(l.cfg.ids[name], id)
		for _, f := range sortedKeys(fields, prefix+".", l.order) {
			s, ok := byKey[name+".*."+f]
			if !ok {
				l.unknown(prefix + "." + f)
				continue
			}
			l.set(*s, prefix+"."+f, fields[f])
		}
	}
}

func (l *loader) set(s Setting, key string, raw any) {
	v, problem := coerce(s, raw)
	if problem != "" {
		if s.Key == "schema_version" {
			l.ds.add(key, "1", "unsupported schema_version: this Fluzo reads schema version %d", SchemaVersion)
			return
		}
		l.ds.add(key, s.ValidRange(), "%s", problem)
		return
	}
	l.cfg.values[key] = Value{Key: key, Value: v, Source: SourceFile, File: l.ds.file, Line: l.ds.lineOf(key)}
}

var credentialName = regexp.MustCompile(`(?i)(api_?key|token|secret|password|passwd|bearer|authorization|credential)$`)

func (l *loader) unknown(key string) {
	name := key[strings.LastIndexByte(key, '.')+1:]
	if credentialName.MatchString(name) {
		l.ds.add(key, `auth = "env" with api_key_env, or auth = "credential" with credential_ref`,
			"literal credentials are not allowed in .fluzo")
		return
	}
	l.ds.add(key, suggest(key), "unknown key")
}

// fillDefaults gives every unset key its default; collections without any
// declared entry get the built-in entries.
func (l *loader) fillDefaults() {
	for _, s := range schema {
		if strings.Contains(s.Key, "*") {
			continue
		}
		if _, ok := l.cfg.values[s.Key]; !ok {
			l.cfg.values[s.Key] = Value{Key: s.Key, Value: copyValue(s.Default), Source: SourceDefault}
		}
	}
	for _, coll := range schemaCollections {
		if _, declared := l.cfg.ids[coll.Name]; !declared {
			for _, e := range coll.DefaultEntries {
				l.cfg.ids[coll.Name] = append(l.cfg.ids[coll.Name], e.ID)
				for f, v := range e.Fields {
					key := coll.Name + "." + e.ID + "." + f
					l.cfg.values[key] = Value{Key: key, Value: v, Source: SourceDefault}
				}
			}
		}
		for _, id := range l.cfg.ids[coll.Name] {
			for _, f := range collectionFields(coll.Name) {
				key := coll.Name + "." + id + "." + f.Name()
				if _, ok := l.cfg.values[key]; !ok {
					l.cfg.values[key] = Value{Key: key, Value: copyValue(f.Default), Source: SourceDefault}
				}
			}
		}
	}
}

func copyValue(v any) any {
	switch x := v.(type) {
	case []string:
		return append([]string{}, x...)
	case map[string]string:
		m, _ := toStringMap(x)
		return m
	}
	return v
}

func isTablePrefix(key string) bool {
	for _, t := range append(tableNames(), collectionParents()...) {
		if t == key || strings.HasPrefix(t, key+".") {
			return true
		}
	}
	return false
}

// suggest names the valid keys of the table an unknown key is in.
func suggest(key string) string {
	table := ""
	if i := strings.LastIndexByte(key, '.'); i >= 0 {
		table = key[:i]
	}
	if coll, id, _, ok := splitCollectionKey(key); ok && id != "" {
		table = coll + ".*"
	}
	var names []string
	for _, s := range schema {
		if s.Table() == table {
			names = append(names, s.Name())
		}
	}
	if table == "" {
		return "schema_version, or a table: " + strings.Join(append(tableNames(), "models.<id>", "capacity_pools.<id>", "mcp.servers.<name>"), ", ")
	}
	if len(names) == 0 {
		return "tables: " + strings.Join(append(tableNames(), "models.<id>", "capacity_pools.<id>", "mcp.servers.<name>"), ", ")
	}
	return "keys of [" + strings.ReplaceAll(table, "*", "<id>") + "]: " + strings.Join(names, ", ")
}

func sortedKeys(m map[string]any, prefix string, order map[string]int) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		oi, iok := order[prefix+keys[i]]
		oj, jok := order[prefix+keys[j]]
		if iok && jok && oi != oj {
			return oi < oj
		}
		return keys[i] < keys[j]
	})
	return keys
}
