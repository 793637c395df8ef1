// Package discover lists the files that search tools may show: the
// repository's tracked and untracked, not ignored, files (exactly what
// "git ls-files -co --exclude-standard" lists), minus protected paths and
// known secret-bearing files. Ignore files shape discovery only; they are
// not access control.
package discover

import (
	"path"
	"strings"
)

// Match reports whether rel (slash-separated) matches the glob pattern,
// where "**" as a whole segment matches any number of segments and the
// other segments use path.Match syntax (*, ?, [...]).
func Match(pattern, rel string) bool {
	return matchSegs(splitSegs(pattern), splitSegs(rel))
}

func splitSegs(s string) []string {
	s = strings.Trim(s, "/")
	if s == "" || s == "." {
		return nil
	}
	return strings.Split(s, "/")
}

func matchSegs(pat, segs []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			if len(pat) == 1 {
				return true
			}
			for i := 0; i <= len(segs); i++ {
				if matchSegs(pat[1:], segs[i:]) {
					return true
				}
			}
			return false
		}
		if len(segs) == 0 {
			return false
		}
		if ok, err := path.Match(pat[0], segs[0]); err != nil || !ok {
			return false
		}
		pat, segs = pat[1:], segs[1:]
	}
	return len(segs) == 0
}

// MatchName applies a glob the way search tools document it: a pattern
// with a slash matches the whole path below the search directory; one
// without matches the file's base name at any depth.
func MatchName(pattern, rel string) bool {
	if strings.Contains(pattern, "/") {
		return Match(pattern, rel)
	}
	ok, err := path.Match(pattern, path.Base(rel))
	return err == nil && ok
}

// ValidPattern reports whether every segment of pattern is a valid glob.
func ValidPattern(pattern string) bool {
	for _, s := range splitSegs(pattern) {
		if s == "**" {
			continue
		}
		if _, err := path.Match(s, ""); err != nil {
			return false
		}
	}
	return true
}

// secretNames are base names (or name prefixes ending in '*') of files
// that commonly hold credentials.
var secretNames = []string{
	".env", ".env.*", "*.pem", "*.key", "*.p12", "*.pfx", "*.jks", "*.keystore", "*.kdbx",
	"id_rsa", "id_dsa", "id_ecdsa", "id_ed25519", "id_rsa_*", "id_ed25519_*", "*.ppk",
	".netrc", "_netrc", ".npmrc", ".pypirc", ".htpasswd", ".pgpass", ".git-credentials",
	"auth.toml", "credentials", "credentials.json", "*.tfstate", "secrets.*",
}

var secretDirs = map[string]bool{".ssh": true, ".aws": true, ".gnupg": true, ".docker": true, ".kube": true}

// nonSecret are examples that document variables without values.
var nonSecret = []string{"*.example", "*.sample", "*.template", "*.dist"}

// Secret reports whether rel is a known secret-bearing file.
func Secret(rel string) bool {
	segs := splitSegs(rel)
	for _, s := range segs[:max(len(segs)-1, 0)] {
		if secretDirs[s] {
			return true
		}
	}
	base := path.Base(rel)
	for _, p := range nonSecret {
		if ok, _ := path.Match(p, base); ok {
			return false
		}
	}
	if strings.HasSuffix(base, ".pub") {
		return false
	}
	for _, p := range secretNames {
		if ok, _ := path.Match(p, base); ok {
			return true
		}
	}
	return false
}

// Protected reports whether rel lies in a protected area that discovery
// never shows (.git anywhere, root-level .fluzo and .fluzodrive).
func Protected(rel string) bool {
	segs := splitSegs(rel)
	for _, s := range segs {
		if s == ".git" || s == ".fluzodrive" {
			return true
		}
	}
	return len(segs) > 0 && segs[0] == ".fluzo"
}
