package discover

import "testing"

func TestMatch(t *testing.T) {
	for _, c := range []struct {
		pattern, path string
		want          bool
	}{
		{"**", "a/b/c.go", true}, {"*.go", "a.go", true}, {"*.go", "a/b.go", false},
		{"a/**/c.go", "a/c.go", true}, {"a/**/c.go", "a/x/y/c.go", true}, {"a/*/c.go", "a/x/y/c.go", false},
		{"**/*.md", "docs/x.md", true}, {"[ab].txt", "b.txt", true},
	} {
		if got := Match(c.pattern, c.path); got != c.want {
			t.Errorf("Match(%q, %q) = %v", c.pattern, c.path, got)
		}
	}
	if !MatchName("*.go", "deep/dir/x.go") || MatchName("dir/*.go", "deep/dir/x.go") {
		t.Error("MatchName: a slash-free pattern matches base names, one with a slash the whole path")
	}
}

func TestSecret(t *testing.T) {
	for p, want := range map[string]bool{
		".env": true, "app/.env.local": true, ".env.example": false, "certs/tls.pem": true, "id_rsa": true,
		"id_rsa.pub": false, ".ssh/config": true, "main.go": false, "home/.netrc": true, "auth.toml": true,
	} {
		if Secret(p) != want {
			t.Errorf("Secret(%q) = %v", p, !want)
		}
	}
	if !Protected(".git/HEAD") || !Protected("sub/.git") || !Protected(".fluzo") || Protected("sub/.fluzo") || !Protected(".fluzodrive/x") {
		t.Error("Protected misclassifies")
	}
}
