package release

import (
	"fmt"
	"os"
	"regexp"
	"strings"
)

// PKGBUILD is the top-level assignments of a PKGBUILD: each name with its
// value (a scalar is a one-element list), in the order they appear.
type PKGBUILD map[string][]string

// srcinfoGlobal is makepkg's order for the pkgbase section (its
// srcinfo_write_global); single-valued fields first, then the arrays.
var srcinfoGlobal = []string{
	"pkgdesc", "pkgver", "pkgrel", "epoch", "url", "install", "changelog",
	"arch", "groups", "license", "checkdepends", "makedepends",
	"depends", "optdepends", "provides", "conflicts", "replaces",
	"noextract", "options", "backup", "source", "validpgpkeys",
	"cksums", "md5sums", "sha1sums", "sha224sums", "sha256sums", "sha384sums", "sha512sums", "b2sums",
}

var assignment = regexp.MustCompile(`^([a-z0-9_]+)=(.*)$`)

// ParsePKGBUILD reads the top-level assignments (those starting a line) of
// a PKGBUILD without running bash: quoted and unquoted words, arrays over
// several lines, comments, and $name/${name} expansion of earlier
// assignments. Function bodies are indented and skipped. Anything it
// cannot read exactly (command substitution, an unknown variable) is an
// error with its line, rather than a wrong .SRCINFO.
func ParsePKGBUILD(path string) (PKGBUILD, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	p := PKGBUILD{}
	lines := strings.Split(string(b), "\n")
	for i := 0; i < len(lines); i++ {
		m := assignment.FindStringSubmatch(lines[i])
		if m == nil {
			continue
		}
		name, value, start := m[1], m[2], i+1
		isArray := strings.HasPrefix(value, "(")
		if isArray {
			value = value[1:]
			for !arrayClosed(value) {
				i++
				if i == len(lines) {
					return nil, fmt.Errorf("%s:%d: array %s is not closed with )", path, start, name)
				}
				value += "\n" + lines[i]
			}
		}
		words, err := p.words(value, isArray)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %s: %w", path, start, name, err)
		}
		p[name] = words
	}
	return p, nil
}

// arrayClosed reports whether s holds the ")" that ends an array, outside
// quotes and comments.
func arrayClosed(s string) bool {
	var quote rune
	comment := false
	for _, r := range s {
		switch {
		case comment:
			comment = r != '\n'
		case quote != 0:
			if r == quote {
				quote = 0
			}
		case r == '\'' || r == '"':
			quote = r
		case r == '#':
			comment = true
		case r == ')':
			return true
		}
	}
	return false
}

// words splits an assignment's value into shell words, expanding
// variables outside single quotes.
func (p PKGBUILD) words(s string, isArray bool) ([]string, error) {
	var out []string
	var cur strings.Builder
	inWord := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\'':
			end := strings.IndexByte(s[i+1:], '\'')
			if end < 0 {
				return nil, fmt.Errorf("unterminated single quote")
			}
			cur.WriteString(s[i+1 : i+1+end])
			i += end + 1
			inWord = true
		case c == '"':
			end := strings.IndexByte(s[i+1:], '"')
			if end < 0 {
				return nil, fmt.Errorf("unterminated double quote")
			}
			v, err := p.expand(s[i+1 : i+1+end])
			if err != nil {
				return nil, err
			}
			cur.WriteString(v)
			i += end + 1
			inWord = true
		case c == ' ' || c == '\t' || c == '\n' || c == ')' || c == '#':
			if inWord {
				out = append(out, cur.String())
				cur.Reset()
				inWord = false
			}
			if c == ')' || (c == '#' && !isArray) {
				return out, nil
			}
			if c == '#' {
				nl := strings.IndexByte(s[i:], '\n')
				if nl < 0 {
					return out, nil
				}
				i += nl
			}
		default:
			j := i
			for j < len(s) && !strings.ContainsRune(" \t\n)'\"#", rune(s[j])) {
				j++
			}
			v, err := p.expand(s[i:j])
			if err != nil {
				return nil, err
			}
			cur.WriteString(v)
			i = j - 1
			inWord = true
		}
	}
	if inWord {
		out = append(out, cur.String())
	}
	return out, nil
}

var variable = regexp.MustCompile(`\$(?:\{([a-z0-9_]+)\}|([a-z0-9_]+))`)

func (p PKGBUILD) expand(s string) (string, error) {
	if strings.Contains(s, "$(") || strings.Contains(s, "`") {
		return "", fmt.Errorf("command substitution in %q cannot be read without running bash", s)
	}
	var bad error
	out := variable.ReplaceAllStringFunc(s, func(ref string) string {
		m := variable.FindStringSubmatch(ref)
		name := m[1] + m[2]
		v, ok := p[name]
		if !ok || len(v) != 1 {
			bad = fmt.Errorf("$%s is not a scalar assigned above", name)
			return ""
		}
		return v[0]
	})
	return out, bad
}

// SRCINFO renders the .SRCINFO makepkg --printsrcinfo would print for a
// single-package PKGBUILD without per-architecture fields or package()
// overrides (what Fluzo's is): the pkgbase section in makepkg's order,
// then the pkgname section.
func (p PKGBUILD) SRCINFO() (string, error) {
	name := p["pkgname"]
	if len(name) != 1 {
		return "", fmt.Errorf("PKGBUILD: pkgname must be one name, got %q", name)
	}
	base := name[0]
	if b := p["pkgbase"]; len(b) == 1 {
		base = b[0]
	}
	var out strings.Builder
	fmt.Fprintf(&out, "pkgbase = %s\n", base)
	for _, field := range srcinfoGlobal {
		for _, v := range p[field] {
			fmt.Fprintf(&out, "\t%s = %s\n", field, strings.Join(strings.Fields(v), " "))
		}
	}
	fmt.Fprintf(&out, "\npkgname = %s\n", name[0])
	return out.String(), nil
}
