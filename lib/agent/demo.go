package agent

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/share"
)

// DemoRequest is the user request of the bundled demo (PRD §45.1).
const DemoRequest = "The regression test counts_words_across_lines_and_tabs fails. Reproduce it with cargo test, fix the implementation without weakening or changing the tests, and report the change and the verification."

// DemoVerify is the demo's verification command.
const DemoVerify = "cargo test"

// PrepareDemoWorkspace copies the bundled Rust fixture into dir (which must
// be empty or absent) and makes it a fresh git repository with one commit,
// so the demo never touches the user's own repositories.
func PrepareDemoWorkspace(ctx context.Context, dir string, extra map[string]string) error {
	if entries, err := os.ReadDir(dir); err == nil && len(entries) > 0 {
		return core.Errorf(core.CodeUsage, "the demo directory %s is not empty", dir).
			WithHint("pass --dir with a new or empty directory, or omit it for a temporary one")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return core.Wrap(err, core.CodeFailed, "cannot create the demo directory "+dir).WithHint("check the path and its permissions")
	}
	sub, _ := fs.Sub(share.Fixtures, share.RustFixture)
	err := fs.WalkDir(sub, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		target := filepath.Join(dir, filepath.FromSlash(p))
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		data, err := fs.ReadFile(sub, p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
	for name, body := range extra {
		if err == nil {
			err = os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644)
		}
	}
	if err != nil {
		return core.Wrap(err, core.CodeFailed, "cannot copy the demo fixture into "+dir).WithHint("check free space and permissions")
	}
	for _, args := range [][]string{
		{"init", "-q", "-b", "main"},
		{"add", "-A"},
		{"-c", "user.name=Fluzo Demo", "-c", "user.email=demo@fluzo.invalid", "commit", "-q", "-m", "fixture: rust-wordcount"},
	} {
		if _, err := inspectGit(ctx, dir, args...); err != nil {
			return err
		}
	}
	return nil
}
