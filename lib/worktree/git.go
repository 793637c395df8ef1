package worktree

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/tools/gitx"
)

// DirName is the directory under the data root (.fluzodrive) that holds
// the task worktrees.
const DirName = "worktrees"

// BranchPrefix starts the name of every task branch: fluzo/TASK.
const BranchPrefix = "fluzo/"

// driveName is the data root's name (store.DriveName); repeated here
// because the store imports nothing of this package and the path is a
// fixed fact of the on-disk layout.
const driveName = ".fluzodrive"

// Binding is where one task's worktree lives and what it started from.
type Binding struct {
	// Task is the task that created the worktree (its id names it).
	Task string `json:"task"`
	// Rel is the worktree's path relative to the workspace root; events
	// record this one, never the absolute path.
	Rel    string `json:"path"`
	Branch string `json:"branch"`
	// Base is the commit the branch was made from (HEAD then).
	Base string `json:"base"`
	// SourceDirty reports that the main tree had uncommitted changes when
	// the worktree was made: they are not in the worktree.
	SourceDirty bool `json:"source_dirty,omitempty"`
}

// Path is the worktree's absolute directory in the workspace at root.
func (b Binding) Path(root string) string { return filepath.Join(root, b.Rel) }

// RelPath is the relative directory of task's worktree.
func RelPath(task string) string { return filepath.Join(driveName, DirName, task) }

// BranchFor is the branch name of task's worktree.
func BranchFor(task string) string { return BranchPrefix + task }

// git runs one hardened git command in dir; a non-zero exit is an error
// carrying git's message.
func git(ctx context.Context, dir string, sub ...string) ([]byte, error) {
	return gitx.Output(ctx, dir, os.Environ(), sub...)
}

// validTask refuses a task id that could name a path or ref outside the
// worktree directory (ids are generated, but TASK also comes from argv).
func validTask(task string) error {
	if !core.ValidID(task, core.KindTask) {
		return core.Errorf(core.CodeUsage, "%q is not a task id", task).
			WithHint("pass a task id as 'fluzo-store tasks' lists it, e.g. tsk_01J…")
	}
	return nil
}

// Create makes task's worktree in the workspace at root: a new branch
// fluzo/TASK at HEAD, checked out under .fluzodrive/worktrees/TASK. The
// main tree's HEAD, index and files are not touched.
func Create(ctx context.Context, root, task string) (Binding, error) {
	if err := validTask(task); err != nil {
		return Binding{}, err
	}
	head, err := gitx.Run(ctx, root, os.Environ(), "rev-parse", "--verify", "--quiet", "HEAD^{commit}")
	if err != nil {
		return Binding{}, err
	}
	base := strings.TrimSpace(string(head.Stdout))
	if head.ExitCode != 0 || base == "" {
		return Binding{}, core.Errorf(core.CodeConfigurationRequired, "the repository at %s has no commit to make a task worktree from", root).
			WithHint("commit once (a worktree starts from HEAD), or run the task in place without --worktree")
	}
	b := Binding{Task: task, Rel: RelPath(task), Branch: BranchFor(task), Base: base}
	if _, err := os.Lstat(b.Path(root)); err == nil {
		return Binding{}, core.Errorf(core.CodeInvalidRequest, "a worktree for task %s already exists at %s", task, b.Rel).
			WithHint("review, accept or reject it first (fluzo-agent review %s)", task)
	}
	// Asked before the worktree exists, so a failure leaves nothing.
	status, err := git(ctx, root, "status", "--porcelain=v1", "-z", "--untracked-files=all")
	if err != nil {
		return Binding{}, err
	}
	b.SourceDirty = len(dirtyPaths(status)) > 0
	if err := makeDir(root); err != nil {
		return Binding{}, err
	}
	if _, err := git(ctx, root, "worktree", "add", "--quiet", "-b", b.Branch, b.Path(root), base); err != nil {
		return Binding{}, err
	}
	return b, nil
}

// CommonDir is the repository's shared git directory (absolute), which
// git in a worktree reads: a command sandbox rooted at the worktree has
// to be allowed to read it.
func CommonDir(ctx context.Context, root string) (string, error) {
	out, err := git(ctx, root, "rev-parse", "--path-format=absolute", "--git-common-dir")
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(string(out)), nil
}

// makeDir creates .fluzodrive/worktrees, refusing one that is a symbolic
// link or not a directory: the data root is never followed elsewhere.
func makeDir(root string) error {
	dir := filepath.Join(root, driveName, DirName)
	rel := filepath.Join(driveName, DirName)
	if err := os.Mkdir(dir, 0o700); err != nil && !os.IsExist(err) {
		return core.Wrap(err, core.CodeStorageError, "cannot create "+rel).
			WithHint("check that %s is writable", filepath.Join(root, driveName))
	}
	fi, err := os.Lstat(dir)
	if err != nil || !fi.IsDir() {
		return core.Errorf(core.CodeStorageError, "%s is not a directory (a symbolic link or a file)", rel).
			WithHint("remove %s; Fluzo recreates it", dir)
	}
	return nil
}

// Exists reports whether b's worktree directory is present.
func Exists(root string, b Binding) bool {
	_, err := os.Lstat(b.Path(root))
	return err == nil
}

// Remove deletes b's worktree (with whatever it holds) and its branch.
// Parts already gone are not an error, so a removal that was interrupted
// can be run again.
func Remove(ctx context.Context, root string, b Binding) error {
	if err := validTask(b.Task); err != nil {
		return err
	}
	if Exists(root, b) {
		if _, err := git(ctx, root, "worktree", "remove", "--force", "--force", b.Path(root)); err != nil {
			// git refuses a directory it does not know as a worktree (its
			// metadata was pruned); the directory is still ours to delete.
			if rmErr := os.RemoveAll(b.Path(root)); rmErr != nil {
				return err
			}
		}
	}
	// Only when git still lists this worktree (its directory went away
	// outside git) is its stale entry pruned: a prune also drops other
	// stale entries, which are the user's business otherwise.
	if stale, err := listed(ctx, root, b.Path(root)); err != nil {
		return err
	} else if stale {
		if _, err := git(ctx, root, "worktree", "prune"); err != nil {
			return err
		}
	}
	ref, err := gitx.Run(ctx, root, os.Environ(), "rev-parse", "--verify", "--quiet", "refs/heads/"+b.Branch)
	if err != nil {
		return err
	}
	if ref.ExitCode == 0 {
		if _, err := git(ctx, root, "branch", "-D", "--quiet", b.Branch); err != nil {
			return err
		}
	}
	return nil
}

// listed reports whether git lists a worktree at path.
func listed(ctx context.Context, root, path string) (bool, error) {
	out, err := git(ctx, root, "worktree", "list", "--porcelain", "-z")
	if err != nil {
		return false, err
	}
	for _, f := range splitZ(out) {
		if f == "worktree "+path {
			return true, nil
		}
	}
	return false, nil
}

// dirtyPaths lists the paths of `git status --porcelain=v1 -z` output:
// staged, unstaged and untracked changes (both names of a rename).
func dirtyPaths(status []byte) []string {
	var out []string
	fields := bytes.Split(status, []byte{0})
	for i := 0; i < len(fields); i++ {
		f := fields[i]
		if len(f) < 4 {
			continue
		}
		out = append(out, string(f[3:]))
		// A rename or copy is followed by its source path.
		if f[0] == 'R' || f[0] == 'C' || f[1] == 'R' || f[1] == 'C' {
			if i+1 < len(fields) {
				i++
				out = append(out, string(fields[i]))
			}
		}
	}
	return out
}
