package config

import (
	"errors"
	"fmt"
	"strings"

	"github.com/josecorral/fluzo/lib/core"
)

// Diagnostic is one problem found in a configuration: where (file, line,
// key), what is wrong and what would be valid. It never echoes a value
// that could be a credential.
type Diagnostic struct {
	File    string `json:"file,omitempty"`
	Line    int    `json:"line,omitempty"`
	Key     string `json:"key,omitempty"`
	Problem string `json:"problem"`
	Valid   string `json:"valid,omitempty"`
}

func (d Diagnostic) String() string {
	var b strings.Builder
	if d.File != "" {
		b.WriteString(d.File)
		if d.Line > 0 {
			fmt.Fprintf(&b, ":%d", d.Line)
		}
		b.WriteString(": ")
	}
	if d.Key != "" {
		b.WriteString(d.Key + ": ")
	}
	b.WriteString(d.Problem)
	if d.Valid != "" {
		b.WriteString(" (valid: " + d.Valid + ")")
	}
	return b.String()
}

// diagnostics collects problems while loading.
type diagnostics struct {
	file  string
	lines map[string]int
	list  []Diagnostic
}

func (ds *diagnostics) add(key, valid, format string, args ...any) {
	ds.list = append(ds.list, Diagnostic{File: ds.file, Line: ds.lineOf(key), Key: key,
		Problem: fmt.Sprintf(format, args...), Valid: valid})
}

// lineOf finds the line of key, or of its nearest located parent (a key
// inside an inline table, or an entry's table header).
func (ds *diagnostics) lineOf(key string) int {
	for k := key; k != ""; {
		if l, ok := ds.lines[k]; ok {
			return l
		}
		i := strings.LastIndexByte(k, '.')
		if i < 0 {
			break
		}
		k = k[:i]
	}
	return 0
}

// err returns the collected problems as one invalid_configuration error,
// or nil. The diagnostics are in Details["diagnostics"] and in Diagnostics.
func (ds *diagnostics) err() error {
	if len(ds.list) == 0 {
		return nil
	}
	return invalid(ds.list)
}

func invalid(list []Diagnostic) *core.Error {
	lines := make([]string, len(list))
	for i, d := range list {
		lines[i] = d.String()
	}
	msg := lines[0]
	if len(lines) > 1 {
		msg = fmt.Sprintf("%d problems in the configuration:\n  %s", len(lines), strings.Join(lines, "\n  "))
	}
	return core.Errorf(core.CodeInvalidConfiguration, "%s", msg).
		WithHint("fix the listed keys; 'fluzo-admit config schema' lists every key with its valid values").
		With("diagnostics", list)
}

// Diagnostics returns the diagnostics carried by an error from this
// package (nil when err carries none).
func Diagnostics(err error) []Diagnostic {
	var fe *core.Error
	if !errors.As(err, &fe) || fe.Details == nil {
		return nil
	}
	list, _ := fe.Details["diagnostics"].([]Diagnostic)
	return list
}
