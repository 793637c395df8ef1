package core

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func TestEventTypesAreListedOnceEach(t *testing.T) {
	seen := map[string]bool{}
	for _, typ := range EventTypes {
		if seen[typ] {
			t.Errorf("event type %q is listed twice", typ)
		}
		seen[typ] = true
		if !IsEventType(typ) {
			t.Errorf("IsEventType(%q) = false", typ)
		}
	}
	// Every Ev constant of this package is in the list.
	f, err := parser.ParseFile(token.NewFileSet(), "event.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	for name, value := range evConstants(f) {
		if !seen[value] {
			t.Errorf("%s = %q is missing from EventTypes", name, value)
		}
	}
	if IsEventType("task.bogus") {
		t.Error("an unlisted type is reported as an event type")
	}
}

// evConstants returns the string constants named Ev… declared in f.
func evConstants(f *ast.File) map[string]string {
	out := map[string]string{}
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, spec := range g.Specs {
			vs := spec.(*ast.ValueSpec)
			for i, n := range vs.Names {
				if isEvName(n.Name) && i < len(vs.Values) {
					if lit, ok := vs.Values[i].(*ast.BasicLit); ok && lit.Kind == token.STRING {
						out[n.Name], _ = strconv.Unquote(lit.Value)
					}
				}
			}
		}
	}
	return out
}

func isEvName(name string) bool {
	return len(name) > 2 && strings.HasPrefix(name, "Ev") && name[2] >= 'A' && name[2] <= 'Z'
}

// TestNoEventTypeIsSpelledOutsideTheList scans the production sources:
// an event type is declared only here and referred to by its constant, so
// a new type cannot be introduced, or an existing one misspelled, in a
// writer without this list (and its readers) knowing.
func TestNoEventTypeIsSpelledOutsideTheList(t *testing.T) {
	dotted := map[string]bool{}
	for _, typ := range EventTypes {
		if strings.Contains(typ, ".") {
			dotted[typ] = true
		}
	}
	self, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	for _, root := range []string{"..", "../../cmd"} {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if abs, _ := filepath.Abs(path); d.IsDir() && (d.Name() == "testdata" || abs == self) {
				return filepath.SkipDir
			}
			if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return nil
			}
			for _, p := range eventTypeProblems(t, path, dotted) {
				t.Error(p)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

// eventTypeProblems reports, in one source file: an Ev… constant or
// variable declared outside lib/core, a string literal passed to a
// record/Record/event call that looks like an event type, a core.Event
// literal with a literal Type, and a literal equal to a listed type.
func eventTypeProblems(t *testing.T, path string, dotted map[string]bool) []string {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, nil, 0)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	var out []string
	report := func(n ast.Node, format string, args ...any) {
		out = append(out, fset.Position(n.Pos()).String()+": "+fmt.Sprintf(format, args...))
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.ValueSpec:
			for _, name := range n.Names {
				if isEvName(name.Name) {
					report(name, "event type %s is declared outside lib/core; add it to core.EventTypes", name.Name)
				}
			}
		case *ast.CallExpr:
			if sel, ok := n.Fun.(*ast.SelectorExpr); ok && (sel.Sel.Name == "record" || sel.Sel.Name == "Record" || sel.Sel.Name == "event") {
				for _, arg := range n.Args {
					if s, ok := stringLit(arg); ok && looksLikeEventType(s) {
						report(arg, "event type %q is spelled as a literal in a %s call; use a core.Ev constant", s, sel.Sel.Name)
					}
				}
			}
		case *ast.CompositeLit:
			if isEventType(n.Type) {
				for _, el := range n.Elts {
					if kv, ok := el.(*ast.KeyValueExpr); ok {
						if k, ok := kv.Key.(*ast.Ident); ok && k.Name == "Type" {
							if s, ok := stringLit(kv.Value); ok {
								report(kv, "core.Event with literal Type %q; use a core.Ev constant", s)
							}
						}
					}
				}
			}
		case *ast.BasicLit:
			if s, ok := stringLit(n); ok && dotted[s] {
				report(n, "event type %q is spelled as a literal; use its core.Ev constant", s)
			}
		}
		return true
	})
	return out
}

func stringLit(e ast.Expr) (string, bool) {
	lit, ok := e.(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		return "", false
	}
	s, err := strconv.Unquote(lit.Value)
	return s, err == nil
}

// looksLikeEventType matches "family.name" in lower case, the shape of
// every dotted event type.
func looksLikeEventType(s string) bool {
	family, name, ok := strings.Cut(s, ".")
	return ok && family != "" && name != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyz_.") == ""
}

func isEventType(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name == "Event"
	case *ast.SelectorExpr:
		return e.Sel.Name == "Event"
	}
	return false
}
