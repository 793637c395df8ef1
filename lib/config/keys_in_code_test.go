package config

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// accessorKinds maps each Config accessor to the setting kinds it may
// read; any other key or kind panics at run time.
var accessorKinds = map[string][]Kind{
	"Int":       {KindInt},
	"Seconds":   {KindInt},
	"Float":     {KindFloat},
	"String":    {KindString, KindEnum},
	"Bool":      {KindBool},
	"Strings":   {KindStrings},
	"StringMap": {KindStringMap},
	"Source":    nil, // any kind
}

// TestEveryKeyReadInCodeIsRegistered parses the production sources of
// lib/ and cmd/ for calls such as cfg.Int("harness.max_turns") or
// c.String("models."+id+".base_url") and checks each key against the
// registry, with the accessor's kind, so a misspelt key fails here instead
// of panicking in a user's run. A key built from a variable prefix (the
// registry's own p+"field" loops) is not checked.
func TestEveryKeyReadInCodeIsRegistered(t *testing.T) {
	checked := 0
	for _, root := range []string{"..", "../../cmd"} {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && d.Name() == "testdata" {
				return filepath.SkipDir
			}
			if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return nil
			}
			for _, use := range keyUses(t, path) {
				checked++
				if msg := checkKeyUse(use); msg != "" {
					t.Errorf("%s: %s", use.pos, msg)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("%d configuration reads checked", checked)
	// The scan must see the runtime's reads, or it proves nothing.
	if checked < 40 {
		t.Fatalf("only %d configuration reads found; the scan is broken", checked)
	}
}

type keyUse struct {
	pos      string
	accessor string
	key      string // entry ids written as "x"
}

func checkKeyUse(u keyUse) string {
	s, ok := Lookup(u.key)
	if !ok {
		return "Config." + u.accessor + "(" + strconv.Quote(u.key) + "): not a registered setting (lib/config/schema.go)"
	}
	kinds := accessorKinds[u.accessor]
	if kinds == nil {
		return ""
	}
	for _, k := range kinds {
		if s.Kind == k {
			return ""
		}
	}
	return "Config." + u.accessor + "(" + strconv.Quote(u.key) + "): the setting is a " + string(s.Kind)
}

// keyUses finds one-argument calls of a Config accessor whose key starts
// with a dotted string literal ("section.key", or "models."+id+".field").
func keyUses(t *testing.T, path string) []keyUse {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, nil, 0)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	var out []keyUse
	ast.Inspect(f, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || len(call.Args) != 1 {
			return true
		}
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		if _, ok := accessorKinds[sel.Sel.Name]; !ok {
			return true
		}
		if key, ok := keyTemplate(call.Args[0]); ok {
			out = append(out, keyUse{pos: fset.Position(call.Pos()).String(), accessor: sel.Sel.Name, key: key})
		}
		return true
	})
	return out
}

// keyTemplate renders a key expression: string literals as written, any
// other operand of + as the entry id "x". It reports false unless the
// expression starts with a literal containing a dot.
func keyTemplate(e ast.Expr) (string, bool) {
	parts := flattenConcat(e)
	first, ok := stringLit(parts[0])
	if !ok || !strings.Contains(first, ".") || strings.ContainsAny(first, " /:") {
		return "", false
	}
	var b strings.Builder
	for _, p := range parts {
		if s, ok := stringLit(p); ok {
			b.WriteString(s)
		} else {
			b.WriteString("x")
		}
	}
	return b.String(), true
}

func flattenConcat(e ast.Expr) []ast.Expr {
	if b, ok := e.(*ast.BinaryExpr); ok && b.Op == token.ADD {
		return append(flattenConcat(b.X), flattenConcat(b.Y)...)
	}
	if p, ok := e.(*ast.ParenExpr); ok {
		return flattenConcat(p.X)
	}
	return []ast.Expr{e}
}

func stringLit(e ast.Expr) (string, bool) {
	lit, ok := e.(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		return "", false
	}
	s, err := strconv.Unquote(lit.Value)
	return s, err == nil
}
