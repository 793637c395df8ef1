package worktree

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"sort"
	"strconv"
	"strings"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/tools/gitx"
)

// File is one path the worktree changed against its base.
type File struct {
	Path string `json:"path"`
	// Status is added, modified or deleted (renames are a deletion and an
	// addition: the patch is applied path by path).
	Status string `json:"status"`
	// Added and Deleted count lines; nil for a binary file (unknown line
	// counts are not zero).
	Added   *int `json:"added"`
	Deleted *int `json:"deleted"`
	Binary  bool `json:"binary,omitempty"`
}

// Change is the worktree's whole change against its base: the working
// files as they are now (committed, staged, unstaged and untracked alike,
// ignored files excluded), as one binary-safe patch.
type Change struct {
	Files []File `json:"files"`
	Patch []byte `json:"-"`
	// ID is the SHA-256 of the patch: what was reviewed is what is
	// accepted when the ids agree.
	ID string `json:"diff_id"`
}

// Paths lists the changed paths.
func (c Change) Paths() []string {
	out := make([]string, len(c.Files))
	for i, f := range c.Files {
		out[i] = f.Path
	}
	return out
}

// Diff computes b's change in the workspace at root. It reads only: no
// index is refreshed or written (gitx sets GIT_OPTIONAL_LOCKS=0) and no
// commit is made; untracked files are diffed against nothing.
func Diff(ctx context.Context, root string, b Binding) (Change, error) {
	dir := b.Path(root)
	if !Exists(root, b) {
		return Change{}, core.Errorf(core.CodeNotFound, "the worktree of task %s is gone (%s)", b.Task, b.Rel).
			WithHint("it was rejected or purged; nothing is left to review")
	}
	var patch bytes.Buffer
	files, err := trackedChanges(ctx, dir, b.Base, &patch)
	if err != nil {
		return Change{}, err
	}
	untracked, err := git(ctx, dir, "ls-files", "--others", "--exclude-standard", "-z")
	if err != nil {
		return Change{}, err
	}
	for _, p := range splitZ(untracked) {
		if isDataRoot(p) {
			continue
		}
		f, err := untrackedChange(ctx, dir, p, &patch)
		if err != nil {
			return Change{}, err
		}
		files = append(files, f)
	}
	sort.Slice(files, func(i, j int) bool { return files[i].Path < files[j].Path })
	sum := sha256.Sum256(patch.Bytes())
	if files == nil {
		files = []File{}
	}
	return Change{Files: files, Patch: patch.Bytes(), ID: hex.EncodeToString(sum[:])}, nil
}

// trackedChanges appends the patch of tracked paths (working files
// against base) to patch and returns their summary.
func trackedChanges(ctx context.Context, dir, base string, patch *bytes.Buffer) ([]File, error) {
	names, err := git(ctx, dir, append([]string{"diff", "--name-status", "-z", "--no-renames", base}, everywhere...)...)
	if err != nil {
		return nil, err
	}
	status := map[string]string{}
	var order []string
	fields := splitZ(names)
	for i := 0; i+1 < len(fields); i += 2 {
		status[fields[i+1]] = statusWord(fields[i])
		order = append(order, fields[i+1])
	}
	if len(order) == 0 {
		return nil, nil
	}
	out, err := git(ctx, dir, append([]string{"diff", "--binary", "--no-renames", "--full-index", base}, everywhere...)...)
	if err != nil {
		return nil, err
	}
	patch.Write(out)
	counts, err := git(ctx, dir, append([]string{"diff", "--numstat", "-z", "--no-renames", base}, everywhere...)...)
	if err != nil {
		return nil, err
	}
	stats := numstat(counts)
	files := make([]File, 0, len(order))
	for _, p := range order {
		f := stats[p]
		f.Path, f.Status = p, status[p]
		files = append(files, f)
	}
	return files, nil
}

// everywhere is the pathspec of a whole worktree but its own data root.
var everywhere = []string{"--", ":(top)", ":(top,exclude)" + driveName}

// untrackedChange appends the creation patch of one untracked path.
func untrackedChange(ctx context.Context, dir, path string, patch *bytes.Buffer) (File, error) {
	// --no-index exits 1 when the sides differ, which they always do here.
	args := []string{"diff", "--no-index", "--binary", "--full-index", "--", os.DevNull, path}
	res, err := gitx.Run(ctx, dir, os.Environ(), args...)
	if err != nil {
		return File{}, err
	}
	if res.ExitCode > 1 {
		return File{}, core.Errorf(core.CodeFailed, "git could not diff the new file %s: %s", path, res.Stderr).
			WithHint("check that %s is a readable regular file", path)
	}
	patch.Write(res.Stdout)
	counts, err := gitx.Run(ctx, dir, os.Environ(), "diff", "--no-index", "--numstat", "-z", "--", os.DevNull, path)
	if err != nil {
		return File{}, err
	}
	f := File{}
	for _, v := range numstat(counts.Stdout) {
		f = v
	}
	f.Path, f.Status = path, "added"
	return f, nil
}

// numstat parses `git diff --numstat -z` (no renames): "A\tD\tPATH\0".
func numstat(out []byte) map[string]File {
	m := map[string]File{}
	for _, rec := range splitZ(out) {
		parts := strings.SplitN(rec, "\t", 3)
		if len(parts) != 3 {
			continue
		}
		f := File{}
		if parts[0] == "-" {
			f.Binary = true
		} else {
			a, errA := strconv.Atoi(parts[0])
			d, errD := strconv.Atoi(parts[1])
			if errA == nil && errD == nil {
				f.Added, f.Deleted = &a, &d
			}
		}
		m[parts[2]] = f
	}
	return m
}

func statusWord(s string) string {
	switch s {
	case "A":
		return "added"
	case "D":
		return "deleted"
	}
	return "modified"
}

// isDataRoot reports a path inside a worktree's own .fluzodrive, which is
// never part of a change.
func isDataRoot(p string) bool { return p == driveName || strings.HasPrefix(p, driveName+"/") }

func splitZ(b []byte) []string {
	var out []string
	for _, f := range bytes.Split(b, []byte{0}) {
		if len(f) > 0 {
			out = append(out, string(f))
		}
	}
	return out
}
