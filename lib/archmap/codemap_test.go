package archmap

import (
	"bufio"
	"fmt"
	"regexp"
	"strings"
)

// Row is one line of the code map: a package, what it owns, and the
// Fluzo packages it may import (patterns: a path, or path/... for it
// and everything beneath).
type Row struct {
	Line     int
	Package  string
	Owns     string
	MayUse   []string
	Anything bool
}

var backticked = regexp.MustCompile("`([^`]+)`")

// ParseCodeMap reads the table under the "## Code map" heading of the
// architecture document.
func ParseCodeMap(doc string) ([]Row, error) {
	var rows []Row
	in := false
	sc := bufio.NewScanner(strings.NewReader(doc))
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if strings.HasPrefix(line, "## ") {
			in = strings.HasPrefix(line, "## Code map")
			continue
		}
		if !in || !strings.HasPrefix(line, "| `") {
			continue
		}
		cells := strings.Split(strings.Trim(line, "| "), " | ")
		if len(cells) != 3 {
			return nil, fmt.Errorf("docs/ARCHITECTURE.md:%d: a code-map row has 3 cells (package | owns | may import), this one has %d", n, len(cells))
		}
		pkg := backticked.FindStringSubmatch(cells[0])
		if pkg == nil {
			return nil, fmt.Errorf("docs/ARCHITECTURE.md:%d: the first cell must be a `package/path`", n)
		}
		r := Row{Line: n, Package: pkg[1], Owns: cells[1]}
		for _, m := range backticked.FindAllStringSubmatch(cells[2], -1) {
			r.MayUse = append(r.MayUse, m[1])
		}
		r.Anything = strings.HasPrefix(strings.TrimSpace(cells[2]), "anything")
		rows = append(rows, r)
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("docs/ARCHITECTURE.md has no code-map rows under a '## Code map' heading")
	}
	return rows, sc.Err()
}

// Allows reports whether the row permits importing pkg.
func (r Row) Allows(pkg string) bool {
	if r.Anything {
		return true
	}
	for _, p := range r.MayUse {
		if base, ok := strings.CutSuffix(p, "/..."); ok {
			if Under(pkg, base) {
				return true
			}
		} else if p == pkg {
			return true
		}
	}
	return false
}

// MapDrift compares the code map with the tree: packages missing from
// the map, rows for packages that no longer exist, and imports a row does
// not allow. Each message says exactly what to change.
func MapDrift(rows []Row, g Graph) []string {
	var out []string
	byPkg := map[string]Row{}
	for _, r := range rows {
		if _, dup := byPkg[r.Package]; dup {
			out = append(out, fmt.Sprintf("docs/ARCHITECTURE.md:%d: %s has two rows; keep one", r.Line, r.Package))
		}
		byPkg[r.Package] = r
		if _, ok := g[r.Package]; !ok {
			out = append(out, fmt.Sprintf("docs/ARCHITECTURE.md:%d lists %s, which no longer exists (no .go files there): remove its row", r.Line, r.Package))
		}
	}
	for _, pkg := range g.Packages() {
		r, ok := byPkg[pkg]
		if !ok {
			out = append(out, fmt.Sprintf("package %s is not in docs/ARCHITECTURE.md: add the row | `%s` | what it owns | may import %s | to the table under '## Code map'", pkg, pkg, quoteAll(g[pkg])))
			continue
		}
		for _, imp := range g[pkg] {
			if !r.Allows(imp) {
				out = append(out, fmt.Sprintf("%s imports %s, which its code-map row (docs/ARCHITECTURE.md:%d) does not allow: add `%s` to that row's last cell if the dependency is intended, or remove the import", pkg, imp, r.Line, imp))
			}
		}
	}
	return out
}

func quoteAll(xs []string) string {
	if len(xs) == 0 {
		return "nothing"
	}
	q := make([]string, len(xs))
	for i, x := range xs {
		q[i] = "`" + x + "`"
	}
	return strings.Join(q, ", ")
}
