package agent

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/josecorral/fluzo/lib/tools"
)

func TestInitialContextIsDeterministicAndReceipted(t *testing.T) {
	dir := newRepo(t, map[string]string{
		"AGENTS.md":            "root rules",
		"crates/a/AGENTS.md":   "crate a rules",
		"crates/AGENTS.md":     "crates rules",
		"ignored/AGENTS.md":    "must not appear",
		".gitignore":           "ignored/\n",
		"src/lib.rs":           "fn main() {}\n",
		"crates/a/src/lib.rs":  "",
		"docs/notes/README.md": "",
	})
	writeFiles(t, dir, map[string]string{"src/lib.rs": "changed\n", "new.txt": "x"})
	in := contextInput{Request: "fix the bug", Root: dir, Reads: localReads(t, dir), Verify: "cargo test", ToolSchemas: []byte(`[{"name":"view"}]`)}
	a, err := buildInitialContext(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	b, err := buildInitialContext(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	if a.Receipt.Digest != b.Receipt.Digest || a.Messages[0].Content != b.Messages[0].Content {
		t.Fatal("same workspace and request gave different contexts")
	}
	var ids []string
	for _, s := range a.Receipt.Sections {
		ids = append(ids, s.ID)
		if len(s.SHA256) != 64 || s.Bytes != len(s.Content) {
			t.Errorf("section %s has digest %q and size %d for %d bytes", s.ID, s.SHA256, s.Bytes, len(s.Content))
		}
	}
	want := "runtime,workspace,git_status,agents_md:AGENTS.md,agents_md:crates/AGENTS.md,agents_md:crates/a/AGENTS.md,verification,tool_schemas,request"
	if got := strings.Join(ids, ","); got != want {
		t.Fatalf("sections\n got %s\nwant %s", got, want)
	}
	sys := a.Messages[0].Content
	for _, s := range []string{" M src/lib.rs", "?? new.txt", "crates/a/ and below", "Workspace root: " + dir} {
		if !strings.Contains(sys, s) {
			t.Errorf("system message lacks %q", s)
		}
	}
	if strings.Contains(sys, "must not appear") {
		t.Error("an ignored AGENTS.md reached the context")
	}
	if a.Messages[1].Role != roleUser || a.Messages[1].Content != "fix the bug" {
		t.Errorf("request message wrong: %+v", a.Messages[1])
	}
	for _, s := range a.Receipt.withoutContent().Sections {
		if s.Content != "" {
			t.Fatal("WithoutContent kept content")
		}
	}

	writeFiles(t, dir, map[string]string{"crates/a/AGENTS.md": "changed rules"})
	c, _ := buildInitialContext(context.Background(), in)
	if c.Receipt.Digest == a.Receipt.Digest {
		t.Fatal("changing an AGENTS.md did not change the receipt digest")
	}
}

func TestNestedInstructionsApplyOnlyToTheirSubtree(t *testing.T) {
	all := []Instructions{{Path: "AGENTS.md", Scope: "."}, {Path: "crates/AGENTS.md", Scope: "crates"}, {Path: "crates/a/AGENTS.md", Scope: "crates/a"}}
	cases := map[string]int{"src/lib.rs": 1, "crates/b/x.rs": 2, "crates/a/src/lib.rs": 3, "cratesx/y": 1, "./crates/a": 3}
	for p, want := range cases {
		if got := len(ApplicableTo(all, p)); got != want {
			t.Errorf("%s: %d applicable, want %d", p, got, want)
		}
	}
}

func TestInstructionsAreBoundedAndSymlinksRefused(t *testing.T) {
	dir := newRepo(t, map[string]string{"AGENTS.md": strings.Repeat("x", tools.MaxInstructionBytes+100)})
	outside := filepath.Join(t.TempDir(), "secret")
	os.WriteFile(outside, []byte("secret"), 0o600)
	os.MkdirAll(filepath.Join(dir, "sub"), 0o755)
	if err := os.Symlink(outside, filepath.Join(dir, "sub", "AGENTS.md")); err != nil {
		t.Fatal(err)
	}
	got, err := DiscoverInstructions(context.Background(), localReads(t, dir))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || !got[0].Truncated || len(got[0].Content) != tools.MaxInstructionBytes {
		t.Fatalf("got %d files, truncated=%v", len(got), len(got) > 0 && got[0].Truncated)
	}
}

func TestContextOutsideGitIsAnError(t *testing.T) {
	if _, err := buildInitialContext(context.Background(), contextInput{Root: "x", Reads: localReads(t, t.TempDir()), Request: "x"}); err == nil {
		t.Fatal("a directory that is not a git working tree was accepted")
	}
}
