package tools

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"strings"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/tools/baseline"
	"github.com/josecorral/fluzo/lib/tools/confine"
	"github.com/josecorral/fluzo/lib/tools/gitx"
)

// workspaceFingerprint identifies the current state of the working tree:
// HEAD, the index and working-tree status, and the content of every
// changed or untracked (not ignored) file. Runtime state in .fluzodrive is
// excluded.
func workspaceFingerprint(ctx context.Context, r *confine.Root, env []string) (string, error) {
	h := sha256.New()
	head, err := gitx.Output(ctx, r.Dir(), env, "rev-parse", "--verify", "-q", "HEAD")
	if err != nil {
		head = []byte("unborn")
	}
	h.Write(head)
	status, err := gitx.Output(ctx, r.Dir(), env, "status", "--porcelain=v1", "-z", "--untracked-files=all")
	if err != nil {
		return "", err
	}
	for _, entry := range bytes.Split(status, []byte{0}) {
		if len(entry) < 4 {
			continue
		}
		rel := string(entry[3:])
		if strings.HasPrefix(rel, ".fluzodrive/") || rel == ".fluzodrive" {
			continue
		}
		h.Write(entry)
		h.Write([]byte{0})
		hashFileInto(h, r, rel)
	}
	return hex.EncodeToString(h.Sum(nil)[:16]), nil
}

// hashFileInto adds the state of one listed path: the content of a plain
// file, the target of a symlink (never followed), "-" for a path that is
// gone or special (a FIFO is refused from its O_PATH handle, so nothing
// blocks), "?" when it cannot be read.
func hashFileInto(w io.Writer, r *confine.Root, rel string) {
	f, _, err := r.OpenNoFollow(rel)
	switch core.CodeOf(err) {
	case "":
		defer f.Close()
		io.Copy(w, f)
	case confine.CodeSymlink:
		target, err := r.Readlink(rel)
		if err != nil {
			io.WriteString(w, "?")
			return
		}
		io.WriteString(w, "l"+target)
	case core.CodeNotFound, confine.CodeSpecialFile, confine.CodeIsDirectory:
		io.WriteString(w, "-")
	default:
		io.WriteString(w, "?")
	}
}

// UnreadableVersion is the current version of a file that exists but
// cannot be read as a plain file beneath the root.
const UnreadableVersion = "unreadable"

// currentVersion is Version of the file's content (its SHA-256), hashed
// as it streams, or Absent when it is gone. It follows no symlink: a file
// since replaced by a link, a FIFO or a protected path reads as
// unreadable, and nothing outside the root is read.
func currentVersion(r *confine.Root, path string) string {
	f, _, err := r.OpenNoFollow(path)
	if err != nil {
		if core.CodeOf(err) == core.CodeNotFound {
			return Absent
		}
		return UnreadableVersion
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return UnreadableVersion
	}
	return hex.EncodeToString(h.Sum(nil))
}

// maxStatusLines bounds the status lines a git_state answer carries; the
// runtime shows fewer, and Total says how many there were.
const maxStatusLines = 512

// GitState is the branch, HEAD and bounded porcelain status of the tree.
type GitState struct {
	Head   string   `json:"head"`
	Branch string   `json:"branch"`
	Status []string `json:"status"`
	Total  int      `json:"total"`
}

// gitState reads HEAD, the branch and "git status --porcelain=v1
// --branch" (runtime state in .fluzodrive left out).
func gitState(ctx context.Context, dir string, env []string) (GitState, error) {
	var st GitState
	// HEAD and the branch are read beside the status, not after it.
	type head struct{ commit, branch string }
	heads := make(chan head, 1)
	go func() {
		_, commit, branch := gitx.Head(ctx, dir, env, false)
		heads <- head{commit, branch}
	}()
	out, err := gitx.Output(ctx, dir, env, "status", "--porcelain=v1", "--branch", "--untracked-files=all")
	h := <-heads
	if err != nil {
		return st, err
	}
	return stateOf(h.commit, h.branch, strings.Split(strings.TrimRight(string(out), "\n"), "\n")), nil
}

// GitStateOf is the git state a baseline was read with (ok false when its
// backend sent none: ask QueryGitState then).
func GitStateOf(snap *baseline.Snapshot) (st GitState, ok bool) {
	if snap == nil || len(snap.Status) == 0 {
		return st, false
	}
	return stateOf(snap.Head, snap.Branch, snap.Status), true
}

// stateOf builds the answer from status lines: runtime state in
// .fluzodrive left out, at most maxStatusLines kept, all counted.
func stateOf(head, branch string, lines []string) GitState {
	st := GitState{Head: head, Branch: branch, Status: []string{}}
	for _, l := range lines {
		if strings.HasPrefix(l, "?? .fluzodrive/") {
			continue
		}
		st.Total++
		if len(st.Status) < maxStatusLines {
			st.Status = append(st.Status, l)
		}
	}
	return st
}
