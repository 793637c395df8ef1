package demo

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/tools/gitx"
	"github.com/josecorral/fluzo/share"
)

// Request is the user request of the bundled demo (PRD §45.1).
const Request = "The regression test counts_words_across_lines_and_tabs fails. Reproduce it with cargo test, fix the implementation without weakening or changing the tests, and report the change and the verification."

// VerifyCommand is the demo's verification command.
const VerifyCommand = "cargo test"

// Grants are the exact grants the demo scenario needs to run unattended:
// the model runs cargo test, nothing else. An interactive launcher leaves
// them out so that the test command asks for approval.
var Grants = []string{"exec:cargo test"}

// Config is the .fluzo of the demo workspace, pointing the agent at the
// simulator's OpenAI-compatible base URL.
func Config(baseURL string) string {
	return fmt.Sprintf(`schema_version = 1

[agent]
model = "coder"

[models.coder]
provider = "openai_compatible"
base_url = %q
model = "sim"
auth = "none"

[harness]
max_turns = 12
verify_command = %q
`, baseURL, VerifyCommand)
}

// PrepareWorkspace copies the bundled Rust fixture and the extra files
// (name → content, e.g. ".fluzo") into dir, which must be empty or absent,
// and makes it a fresh git repository with one commit whose local exclude
// file ignores .fluzodrive/, so the demo never touches the user's own
// repositories and its private store is never tracked.
func PrepareWorkspace(ctx context.Context, dir string, extra map[string]string) error {
	if entries, err := os.ReadDir(dir); err == nil && len(entries) > 0 {
		return core.Errorf(core.CodeUsage, "the demo directory %s is not empty", dir).
			WithHint("pass --dir with a new or empty directory, or omit it for a temporary one")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return core.Wrap(err, core.CodeFailed, "cannot create the demo directory "+dir).WithHint("check the path and its permissions")
	}
	if err := copyFixture(dir, extra); err != nil {
		return core.Wrap(err, core.CodeFailed, "cannot copy the demo fixture into "+dir).WithHint("check free space and permissions")
	}
	if err := commitFixture(ctx, dir); err != nil {
		return err
	}
	return excludeDrive(dir)
}

func copyFixture(dir string, extra map[string]string) error {
	sub, err := fs.Sub(share.Fixtures, share.RustFixture)
	if err != nil {
		return err
	}
	err = fs.WalkDir(sub, ".", func(p string, d fs.DirEntry, err error) error {
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
	return err
}

// commitFixture runs git through the hardened runner even though the
// repository is our own: the user's global configuration still applies.
func commitFixture(ctx context.Context, dir string) error {
	for _, args := range [][]string{
		{"init", "-q", "-b", "main"},
		{"add", "-A"},
		{"-c", "user.name=Fluzo Demo", "-c", "user.email=demo@fluzo.invalid", "commit", "-q", "-m", "fixture: rust-wordcount"},
	} {
		if _, err := gitx.Output(ctx, dir, os.Environ(), args...); err != nil {
			return core.Wrap(err, core.CodeFailed, "git "+strings.Join(args, " ")+" failed in "+dir).
				WithHint("check that git is installed and on PATH")
		}
	}
	return nil
}

// excludeDrive adds the store's rule to the fresh repository's local
// exclude file (never the tracked .gitignore); git init just created it.
func excludeDrive(dir string) error {
	path := filepath.Join(dir, ".git", "info", "exclude")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return core.Wrap(err, core.CodeFailed, "cannot create "+filepath.Dir(path)).WithHint("check the permissions of the demo directory")
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err == nil {
		_, err = f.WriteString("\n# Fluzo private state (sessions, artifacts, telemetry)\n/.fluzodrive/\n")
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		return core.Wrap(err, core.CodeFailed, "cannot write "+path).WithHint("check free space and permissions")
	}
	return nil
}
