package tools

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/josecorral/fluzo/lib/core"
)

func TestViewNumbersLinesAndReturnsTheVersion(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{"a.txt": "one\ntwo\nthree\n"})
	c := newClient(t, root)
	v := callOK[ViewResult](t, c, "view", map[string]any{"path": "a.txt"})
	if v.Content != "     1\tone\n     2\ttwo\n     3\tthree\n" || v.TotalLines != 3 || v.Truncated {
		t.Fatalf("view = %+v", v)
	}
	if v.Version != Version([]byte("one\ntwo\nthree\n")) {
		t.Fatalf("version %s is not the sha256 of the content", v.Version)
	}
	page := callOK[ViewResult](t, c, "view", map[string]any{"path": "a.txt", "offset": 1, "limit": 1})
	if page.Content != "     2\ttwo\n[fluzo: output truncated after line 2 of 3; view again with offset 2]\n" || !page.Truncated || page.NextOffset != 2 {
		t.Fatalf("paged view = %+v", page)
	}
}

func TestViewCapsLongLinesAndBinaryFiles(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{"long.txt": strings.Repeat("x", ViewLineChars+50) + "\n", "bin": "a\x00b"})
	c := newClient(t, root)
	v := callOK[ViewResult](t, c, "view", map[string]any{"path": "long.txt"})
	if !strings.Contains(v.Content, "… [line truncated]") {
		t.Fatalf("long line not marked: %q", v.Content[len(v.Content)-40:])
	}
	b := callOK[ViewResult](t, c, "view", map[string]any{"path": "bin"})
	if !b.Binary || strings.Contains(b.Content, "a\x00b") {
		t.Fatalf("binary view = %+v", b)
	}
}

func TestWriteAndEditRequireTheCurrentVersion(t *testing.T) {
	root := t.TempDir()
	c := newClient(t, root)
	w := callOK[WriteResult](t, c, "write", map[string]any{"path": "dir/new.go", "content": "package x\n", "expect_version": "absent"})
	if !w.Created || readFile(t, filepath.Join(root, "dir/new.go")) != "package x\n" {
		t.Fatalf("create = %+v", w)
	}
	callErr(t, c, "write", map[string]any{"path": "dir/new.go", "content": "again\n", "expect_version": "absent"}, CodeStaleVersion)
	callErr(t, c, "write", map[string]any{"path": "dir/new.go", "content": "again\n", "expect_version": Version([]byte("old"))}, CodeStaleVersion)
	callErr(t, c, "write", map[string]any{"path": "missing.go", "content": "x", "expect_version": Version([]byte("x"))}, CodeStaleVersion)
	if readFile(t, filepath.Join(root, "dir/new.go")) != "package x\n" {
		t.Fatal("a stale write changed the file")
	}
	e := callOK[WriteResult](t, c, "edit", map[string]any{"path": "dir/new.go", "old_string": "x", "new_string": "y", "expect_version": w.Version})
	if readFile(t, filepath.Join(root, "dir/new.go")) != "package y\n" || e.Version != Version([]byte("package y\n")) {
		t.Fatalf("edit = %+v", e)
	}
	callErr(t, c, "edit", map[string]any{"path": "dir/new.go", "old_string": "y", "new_string": "z", "expect_version": w.Version}, CodeStaleVersion)
}

func TestEditReportsAbsentAndAmbiguousText(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{"a.txt": "foo foo bar\n"})
	c := newClient(t, root)
	v := callOK[ViewResult](t, c, "view", map[string]any{"path": "a.txt"}).Version
	callErr(t, c, "edit", map[string]any{"path": "a.txt", "old_string": "baz", "new_string": "q", "expect_version": v}, CodeOldStringNotFound)
	amb := callErr(t, c, "edit", map[string]any{"path": "a.txt", "old_string": "foo", "new_string": "q", "expect_version": v}, CodeOldStringAmbiguous)
	if amb.Details["occurrences"] != float64(2) {
		t.Fatalf("ambiguity details = %v", amb.Details)
	}
	if readFile(t, filepath.Join(root, "a.txt")) != "foo foo bar\n" {
		t.Fatal("a refused edit changed the file")
	}
	all := callOK[WriteResult](t, c, "edit", map[string]any{"path": "a.txt", "old_string": "foo", "new_string": "q", "replace_all": true, "expect_version": v})
	if all.Replacements != 2 || readFile(t, filepath.Join(root, "a.txt")) != "q q bar\n" {
		t.Fatalf("replace_all = %+v", all)
	}
}

func TestArgumentsAreClosedSchemas(t *testing.T) {
	c := newClient(t, t.TempDir())
	callErr(t, c, "view", map[string]any{"path": "a", "bogus": 1}, core.CodeInvalidRequest)
	callErr(t, c, "view", map[string]any{}, core.CodeInvalidRequest)
	callErr(t, c, "nosuchtool", map[string]any{}, CodeUnknownTool)
}

func TestFileToolsAreConfined(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{".git/config": "[core]\n", ".fluzo": "x", "ok.txt": "ok"})
	c := newClient(t, root)
	callErr(t, c, "view", map[string]any{"path": "../../etc/passwd"}, "outside_root")
	callErr(t, c, "view", map[string]any{"path": "/etc/passwd"}, "outside_root")
	callErr(t, c, "view", map[string]any{"path": ".git/config"}, "protected_path")
	callErr(t, c, "write", map[string]any{"path": ".fluzo", "content": "y", "expect_version": Version([]byte("x"))}, "protected_path")
	callErr(t, c, "edit", map[string]any{"path": "x/../.git/config", "old_string": "core", "new_string": "pwn", "expect_version": "a"}, "protected_path")
	callErr(t, c, "ls", map[string]any{"path": ".git"}, "protected_path")
	callErr(t, c, "grep", map[string]any{"pattern": "core", "path": "../"}, "outside_root")
}
