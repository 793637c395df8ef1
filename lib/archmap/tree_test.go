package archmap

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// Module is the import path prefix of Fluzo's own packages.
const Module = "github.com/josecorral/fluzo"

// Graph maps each package of the repository (a slash path relative to
// the module root, e.g. "lib/store") to the Fluzo packages its non-test
// files import directly.
type Graph map[string][]string

// ReadTree walks the repository at root for directories holding .go
// files (testdata, hidden directories and nested modules excluded) and
// parses their
// imports. Test files count for the package list but not for imports:
// layering is about what ships.
func ReadTree(root string) (Graph, error) {
	g := Graph{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path == root {
				return nil
			}
			if strings.HasPrefix(name, ".") || name == "testdata" || name == "node_modules" {
				return filepath.SkipDir
			}
			// A nested module (a fixture with its own go.mod) is not ours.
			if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") {
			return nil
		}
		rel, err := filepath.Rel(root, filepath.Dir(path))
		if err != nil {
			return err
		}
		pkg := filepath.ToSlash(rel)
		if _, ok := g[pkg]; !ok {
			g[pkg] = nil
		}
		if strings.HasSuffix(name, "_test.go") {
			return nil
		}
		imports, err := fluzoImports(path)
		if err != nil {
			return err
		}
		g[pkg] = mergeSorted(g[pkg], imports)
		return nil
	})
	return g, err
}

func fluzoImports(file string) ([]string, error) {
	src, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	f, err := parser.ParseFile(token.NewFileSet(), file, src, parser.ImportsOnly)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, imp := range f.Imports {
		p, _ := strconv.Unquote(imp.Path.Value)
		if rel, ok := strings.CutPrefix(p, Module+"/"); ok {
			out = append(out, rel)
		}
	}
	return out, nil
}

func mergeSorted(a, b []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, x := range append(append([]string{}, a...), b...) {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	sort.Strings(out)
	return out
}

// Packages lists the graph's packages in order.
func (g Graph) Packages() []string {
	out := make([]string, 0, len(g))
	for p := range g {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// Path returns a chain of imports from pkg to a package matching target
// (itself or one beneath it), or nil when pkg does not reach it.
func (g Graph) Path(pkg, target string) []string {
	seen := map[string]bool{}
	var walk func(p string) []string
	walk = func(p string) []string {
		if seen[p] {
			return nil
		}
		seen[p] = true
		for _, imp := range g[p] {
			if Under(imp, target) {
				return []string{p, imp}
			}
			if rest := walk(imp); rest != nil {
				return append([]string{p}, rest...)
			}
		}
		return nil
	}
	return walk(pkg)
}

// Under reports whether pkg is base or a package beneath it.
func Under(pkg, base string) bool { return pkg == base || strings.HasPrefix(pkg, base+"/") }
