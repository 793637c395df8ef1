package config

import (
	"os"
	"slices"
	"strings"
	"testing"
)

// docs/REMOTE.md's recipes are pasted into .fluzo files as they are, so
// each TOML block must load as a tools.backend argv that ends by starting
// fluzo-tool serve with a root, and the four engines the documentation
// promises (ssh, kubectl exec -i, docker exec -i, bwrap) must each have
// one. A typo in a recipe, or a recipe dropped, fails here.
func TestRemoteRecipesLoadAsBackends(t *testing.T) {
	b, err := os.ReadFile("../../docs/REMOTE.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := tomlBlocks(string(b))
	if len(blocks) < 5 {
		t.Fatalf("docs/REMOTE.md has %d toml blocks, want the configuration example and four recipes", len(blocks))
	}
	seen := map[string][]string{}
	for i, block := range blocks {
		text := "schema_version = 1\n"
		if !strings.HasPrefix(strings.TrimSpace(block), "[tools]") {
			text += "[tools]\n"
		}
		cfg, err := Parse([]byte(text+block), "REMOTE.md")
		if err != nil {
			t.Errorf("recipe %d does not load: %v\n%s", i+1, err, block)
			continue
		}
		argv := cfg.Strings("tools.backend")
		if len(argv) < 4 {
			t.Errorf("recipe %d: tools.backend = %q, want a command that starts fluzo-tool serve --root DIR", i+1, argv)
			continue
		}
		if tail := argv[len(argv)-4:]; tail[0] != "fluzo-tool" || tail[1] != "serve" || tail[2] != "--root" || !strings.HasPrefix(tail[3], "/") {
			t.Errorf("recipe %d: tools.backend ends with %q, want fluzo-tool serve --root /ABSOLUTE", i+1, tail)
		}
		seen[argv[0]] = argv
	}
	for _, want := range []struct {
		prog  string
		flags []string
	}{
		{"ssh", []string{"-T"}},
		{"kubectl", []string{"exec", "-i", "--"}},
		{"docker", []string{"exec", "-i"}},
		{"bwrap", []string{"--die-with-parent", "--unshare-net", "--tmpfs", "TMPDIR"}},
	} {
		argv, ok := seen[want.prog]
		if !ok {
			t.Errorf("docs/REMOTE.md has no %s recipe", want.prog)
			continue
		}
		for _, f := range want.flags {
			if !slices.Contains(argv, f) {
				t.Errorf("the %s recipe %q lacks %s", want.prog, argv, f)
			}
		}
	}
}

// tomlBlocks returns the bodies of the ```toml fences of a Markdown text.
func tomlBlocks(md string) []string {
	var out []string
	for _, part := range strings.Split(md, "```toml\n")[1:] {
		body, _, ok := strings.Cut(part, "```")
		if ok {
			out = append(out, body)
		}
	}
	return out
}

// tools.backend is an argv, never a shell string: a string is refused
// naming the key, the line and what it must be.
func TestBackendAsAShellStringIsRefused(t *testing.T) {
	_, err := Parse([]byte("schema_version = 1\n[tools]\nbackend = \"ssh -T host fluzo-tool serve --root /srv/repo\"\n"), ".fluzo")
	if err == nil {
		t.Fatal("a shell string was accepted as tools.backend")
	}
	for _, want := range []string{"tools.backend", ".fluzo:3", "expected an array of strings, found a string"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not contain %q", err, want)
		}
	}
}
