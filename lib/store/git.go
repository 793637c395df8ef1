package store

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/tools/gitx"
)

// runGit runs git in dir through the one hardened runner (lib/tools/gitx:
// no repository-configured helper runs, DESIGN §7 invariant 6) and returns
// stdout and the exit status (0 when git succeeded). Git is the authority
// on tracking and ignore rules, but a hostile repository must not execute
// code when Fluzo asks it a question. The user's global and system
// configuration stay: their ignore rules are part of what "excluded"
// means to the user's own git. A failure to run git at all is an error.
func runGit(ctx context.Context, dir string, args ...string) (string, int, error) {
	res, err := gitx.Run(ctx, dir, os.Environ(), args...)
	if err != nil {
		return "", -1, err
	}
	return string(res.Stdout), res.ExitCode, nil
}

// gitTopLevel returns the working-tree root containing dir.
func gitTopLevel(ctx context.Context, dir string) (string, error) {
	out, code, err := runGit(ctx, dir, "rev-parse", "--show-toplevel")
	if err != nil {
		return "", err
	}
	top := strings.TrimSpace(out)
	if code != 0 || top == "" {
		return "", core.Errorf(core.CodeConfigurationRequired, "%s is not inside a git working tree", dir).
			WithHint("run fluzo in a git repository (git init), or pass --workspace DIR")
	}
	return top, nil
}

// Exclusion describes how git sees the data root.
type Exclusion struct {
	// Tracked lists paths under .fluzodrive/ that git tracks (a repair is
	// needed: git rm -r --cached .fluzodrive).
	Tracked []string `json:"tracked,omitempty"`
	// Excluded reports whether git ignores .fluzodrive/ and its contents.
	Excluded bool `json:"excluded"`
}

// OK reports whether private data may be written under .fluzodrive/.
func (e Exclusion) OK() bool { return e.Excluded && len(e.Tracked) == 0 }

// CheckExclusion asks git (helpers disabled) whether .fluzodrive/ is
// untracked and ignored in the workspace. A symlinked or non-directory
// data root is a storage_error.
func CheckExclusion(ctx context.Context, ws Workspace) (Exclusion, error) {
	var ex Exclusion
	// Git refuses paths beyond a symlink; the symlink is the real problem.
	if _, err := checkDataRoot(ws); err != nil {
		return ex, err
	}
	// Both questions go to git at once: they are independent reads, and
	// each is a git process (and a configuration listing) on the way to
	// the first request.
	want := []string{DriveName + "/", DriveName + "/" + DatabaseName}
	type answer struct {
		out  string
		code int
		err  error
	}
	tracked := make(chan answer, 1)
	go func() {
		out, code, err := runGit(ctx, ws.Root, "ls-files", "-z", "--cached", "--", DriveName)
		tracked <- answer{out, code, err}
	}()
	// Both the directory and a file inside it must be ignored: a rule such
	// as "/.fluzodrive/*" plus a negation could leave the database visible.
	// One check-ignore answers for both (it prints the ignored ones, a line
	// each; -z needs --stdin), so the start pays one git process and one
	// configuration listing, not two of each.
	out, code, err := runGit(ctx, ws.Root, append([]string{"check-ignore", "--no-index", "--"}, want...)...)
	ls := <-tracked
	if ls.err != nil {
		return ex, ls.err
	}
	if ls.code != 0 {
		return ex, core.Errorf(core.CodeConfigurationRequired, "git ls-files failed in %s", ws.Root).
			WithHint("check that the repository is readable: git -C %s status", ws.Root)
	}
	for _, p := range strings.Split(ls.out, "\x00") {
		if p != "" {
			ex.Tracked = append(ex.Tracked, p)
		}
	}
	if err != nil {
		return ex, err
	}
	switch code {
	case 0, 1: // 1: none of them is ignored
	default:
		return ex, core.Errorf(core.CodeConfigurationRequired, "git check-ignore failed in %s", ws.Root).
			WithHint("check the repository's ignore files for errors")
	}
	ignored := map[string]bool{}
	for _, p := range strings.Split(out, "\n") {
		ignored[p] = true
	}
	ex.Excluded = ignored[want[0]] && ignored[want[1]]
	return ex, nil
}

// exclusionError explains why private data may not be written yet.
func exclusionError(ws Workspace, ex Exclusion) error {
	if len(ex.Tracked) > 0 {
		return core.Errorf(core.CodeConfigurationRequired,
			"%s is tracked by git in %s (%d file(s), e.g. %s); private state must never be committed",
			DriveName, ws.Root, len(ex.Tracked), ex.Tracked[0]).
			WithHint("untrack it yourself with: git -C %s rm -r --cached %s (Fluzo never untracks data for you)", ws.Root, DriveName).
			With("tracked", ex.Tracked)
	}
	return core.Errorf(core.CodeConfigurationRequired, "%s is not excluded from git in %s", DriveName, ws.Root).
		WithHint("run 'fluzo-store init --git-exclude' to add /%s/ to the repository's local exclude file (never .gitignore), or add an ignore rule yourself", DriveName)
}

// ExcludeFile returns the path of the repository's local exclude file as
// git resolves it (worktrees and GIT_DIR layouts included).
func ExcludeFile(ctx context.Context, ws Workspace) (string, error) {
	out, code, err := runGit(ctx, ws.Root, "rev-parse", "--git-path", "info/exclude")
	if err != nil {
		return "", err
	}
	p := strings.TrimSpace(out)
	if code != 0 || p == "" {
		return "", core.Errorf(core.CodeConfigurationRequired, "git could not name the exclude file of %s", ws.Root).
			WithHint("check the repository with: git -C %s rev-parse --git-dir", ws.Root)
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(ws.Root, p)
	}
	return p, nil
}

// excludeLine is the rule written by the explicit opt-in.
const excludeLine = "/" + DriveName + "/"

// AddGitExclude appends "/.fluzodrive/" to the repository's local exclude
// file (never the tracked .gitignore). It is the explicit opt-in of
// "fluzo-store init --git-exclude" and is idempotent. It returns the file
// it changed, or "" when the rule was already there.
func AddGitExclude(ctx context.Context, ws Workspace) (string, error) {
	path, err := ExcludeFile(ctx, ws)
	if err != nil {
		return "", err
	}
	old, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return "", core.Wrap(err, core.CodeStorageError, "cannot read "+path).
			WithHint("check the permissions of the repository's git directory")
	}
	for _, line := range strings.Split(string(old), "\n") {
		if strings.TrimSpace(line) == excludeLine {
			return "", nil
		}
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return "", core.Wrap(err, core.CodeStorageError, "cannot create "+filepath.Dir(path)).
			WithHint("check the permissions of the repository's git directory")
	}
	var add strings.Builder
	if len(old) > 0 && !bytes.HasSuffix(old, []byte("\n")) {
		add.WriteString("\n")
	}
	add.WriteString("# Fluzo private state (sessions, artifacts, telemetry)\n" + excludeLine + "\n")
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return "", core.Wrap(err, core.CodeStorageError, "cannot open "+path).
			WithHint("check the permissions of the repository's git directory")
	}
	_, werr := f.WriteString(add.String())
	serr := f.Sync()
	cerr := f.Close()
	if err := errors.Join(werr, serr, cerr); err != nil {
		return "", core.Wrap(err, core.CodeStorageError, "cannot write "+path).
			WithHint("check free space and permissions")
	}
	return path, nil
}
