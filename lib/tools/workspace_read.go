package tools

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"strings"

	"github.com/josecorral/fluzo/lib/core"
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
		_, commit, branch := headOf(ctx, dir, env, false)
		heads <- head{commit, branch}
	}()
	out, err := gitx.Output(ctx, dir, env, "status", "--porcelain=v1", "--branch", "--untracked-files=all")
	h := <-heads
	if err != nil {
		return st, err
	}
	st.Head, st.Branch = h.commit, h.branch
	st.Status = []string{}
	for _, l := range strings.Split(strings.TrimRight(string(out), "\n"), "\n") {
		if strings.HasPrefix(l, "?? .fluzodrive/") {
			continue
		}
		st.Total++
		if len(st.Status) < maxStatusLines {
			st.Status = append(st.Status, l)
		}
	}
	return st, nil
}

// headOf reads HEAD's commit and branch ("" when detached), and with top
// the work tree's top level, in one git process; a HEAD without a commit
// yet (which that process cannot name) is read the long way.
func headOf(ctx context.Context, dir string, env []string, top bool) (topLevel, head, branch string) {
	args := []string{"rev-parse"}
	if top {
		args = append(args, "--show-toplevel")
	}
	// The final "--" keeps a file named HEAD from making the name ambiguous.
	args = append(args, "HEAD", "--abbrev-ref", "HEAD", "--")
	if res, err := gitx.Run(ctx, dir, env, args...); err == nil && res.ExitCode == 0 {
		lines := strings.Split(string(res.Stdout), "\n")
		if top {
			topLevel, lines = lines[0], lines[1:]
		}
		if len(lines) >= 2 {
			head, branch = lines[0], lines[1]
			if branch == "HEAD" { // git's answer for a detached HEAD
				branch = ""
			}
			return topLevel, head, branch
		}
	}
	if top {
		topLevel, _ = gitx.TopLevel(ctx, dir, env)
	}
	if h, err := gitx.Output(ctx, dir, env, "rev-parse", "--verify", "-q", "HEAD"); err == nil {
		head = strings.TrimSpace(string(h))
	}
	if b, err := gitx.Output(ctx, dir, env, "symbolic-ref", "-q", "--short", "HEAD"); err == nil {
		branch = strings.TrimSpace(string(b))
	}
	return topLevel, head, branch
}
