package worktree

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/tools/gitx"
)

// CodeConflict refuses an accept that would touch files the user changed
// in the main tree, or that changed there since the task's base.
const CodeConflict core.Code = "worktree_conflict"

// Accept applies b's change to the main working tree at root as
// uncommitted changes: files are written, nothing is staged or committed,
// HEAD and every branch stay where they are. It first refuses, changing
// nothing, when a changed path has pre-existing user changes in the main
// tree (staged, unstaged or untracked) or differs there from the task's
// base (the branch moved on under it); git apply then writes the whole
// patch or nothing. When expectID is not empty the change must still be
// the one reviewed.
func Accept(ctx context.Context, root string, b Binding, expectID string) (Change, error) {
	ch, err := Diff(ctx, root, b)
	if err != nil {
		return ch, err
	}
	if expectID != "" && expectID != ch.ID {
		return ch, core.Errorf(CodeConflict, "the worktree of task %s changed since it was reviewed (diff %.12s, now %.12s)", b.Task, expectID, ch.ID).
			WithHint("review it again (fluzo-agent review %s), then accept with the new diff id", b.Task).With("diff_id", ch.ID)
	}
	if len(ch.Files) == 0 {
		return ch, core.Errorf(core.CodeInvalidRequest, "the worktree of task %s has no changes to accept", b.Task).
			WithHint("reject it to remove the worktree and its branch (fluzo-agent reject %s --yes)", b.Task)
	}
	if err := checkClean(ctx, root, b, ch); err != nil {
		return ch, err
	}
	return ch, apply(ctx, root, b, ch)
}

// checkClean refuses when a path of the change has user changes in the
// main tree or moved there since the base.
func checkClean(ctx context.Context, root string, b Binding, ch Change) error {
	touched := map[string]bool{}
	for _, p := range ch.Paths() {
		touched[p] = true
	}
	status, err := git(ctx, root, "status", "--porcelain=v1", "-z", "--untracked-files=all")
	if err != nil {
		return err
	}
	var dirty []string
	for _, p := range dirtyPaths(status) {
		if touched[p] {
			dirty = append(dirty, p)
		}
	}
	if len(dirty) > 0 {
		sort.Strings(dirty)
		return core.Errorf(CodeConflict, "accepting task %s would touch files you changed in your working tree: %s", b.Task, strings.Join(dirty, ", ")).
			WithHint("nothing was changed; commit, stash or discard your changes to those files, then run 'fluzo-agent accept %s' again (or review the patch with 'fluzo-agent review %s' and apply it by hand)", b.Task, b.Task).
			With("files", dirty).With("reason", "preexisting_user_changes")
	}
	moved, err := git(ctx, root, "diff", "--name-only", "-z", "--no-renames", b.Base, "HEAD")
	if err != nil {
		return err
	}
	var m []string
	for _, p := range splitZ(moved) {
		if touched[p] {
			m = append(m, p)
		}
	}
	if len(m) > 0 {
		sort.Strings(m)
		return core.Errorf(CodeConflict, "accepting task %s would touch files that changed on your branch since the task started from %.12s: %s", b.Task, b.Base, strings.Join(m, ", ")).
			WithHint("nothing was changed; review the patch ('fluzo-agent review %s') and merge it by hand, or repair the task", b.Task).
			With("files", m).With("reason", "base_moved")
	}
	return nil
}

// apply writes the patch into the main tree with git apply: no --index
// (nothing is staged), no --3way (no conflict markers, no merge), and
// whitespace taken exactly as it is whatever apply.whitespace says.
func apply(ctx context.Context, root string, b Binding, ch Change) error {
	f, err := os.CreateTemp(filepath.Dir(b.Path(root)), "accept-*.patch")
	if err != nil {
		return core.Wrap(err, core.CodeStorageError, "cannot write the patch to accept").
			WithHint("check that %s is writable", filepath.Dir(b.Rel))
	}
	defer os.Remove(f.Name())
	if _, err := f.Write(ch.Patch); err != nil {
		f.Close()
		return core.Wrap(err, core.CodeStorageError, "cannot write the patch to accept").WithHint("check free space")
	}
	if err := f.Close(); err != nil {
		return core.Wrap(err, core.CodeStorageError, "cannot write the patch to accept").WithHint("check free space")
	}
	for _, check := range []bool{true, false} {
		args := []string{"apply", "--whitespace=nowarn"}
		if check {
			args = append(args, "--check")
		}
		res, err := gitx.Run(ctx, root, os.Environ(), append(args, f.Name())...)
		if err != nil {
			return err
		}
		if res.ExitCode != 0 {
			return core.Errorf(CodeConflict, "the change of task %s does not apply to your working tree: %s", b.Task, res.Stderr).
				WithHint("nothing was changed; review the patch ('fluzo-agent review %s') and merge it by hand", b.Task).With("reason", "apply_failed")
		}
	}
	return nil
}
