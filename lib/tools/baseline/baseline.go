// Package baseline records the state of a workspace's changes when a task
// starts and later separates the changes that were already there from the
// ones made since, flagging changes the task cannot vouch for.
package baseline

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"sort"
	"strings"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/tools/confine"
	"github.com/josecorral/fluzo/lib/tools/gitx"
	"github.com/josecorral/fluzo/lib/tools/sandbox"
)

// Fingerprint values that are not content hashes.
const (
	Absent     = "absent"
	Unreadable = "unreadable"
	// SymlinkPrefix starts the fingerprint of a symlink: the SHA-256 of
	// its target text follows.
	SymlinkPrefix = "symlink:"
)

// Entry is one changed path: git's two status letters (index, worktree;
// "??" for untracked) and a fingerprint of the working-tree content.
type Entry struct {
	Path        string `json:"path"`
	Status      string `json:"status"`
	Fingerprint string `json:"fingerprint"`
}

// Snapshot is a baseline: HEAD and every staged, unstaged and untracked
// path with its fingerprint.
type Snapshot struct {
	V       int     `json:"v"`
	Type    string  `json:"type"`
	Root    string  `json:"root"`
	Head    string  `json:"head"`
	Entries []Entry `json:"entries"`
	// Protected is the identity and content of .git's config, hooks and
	// info/, .fluzo and .fluzodrive: git status does not see them, so
	// they are compared separately.
	Protected sandbox.ProtectedState `json:"protected,omitempty"`
	// Branch ("" when detached) and Status are the git state the entries
	// were read with, for a task's context: Status is what "git status
	// --porcelain=v1 --branch" prints (its header first, paths quoted as
	// git quotes them), from the same git process — so a task's start
	// asks no separate git state, and its context and its baseline are
	// one instant. A backend that does not send them is asked apart.
	Branch string   `json:"branch,omitempty"`
	Status []string `json:"status,omitempty"`
}

// Capture records the current changes of the git work tree at root. Files
// are fingerprinted through the confined root, so protected or escaping
// paths are recorded as unreadable rather than read.
func Capture(ctx context.Context, root *confine.Root, baseEnv []string) (*Snapshot, error) {
	// HEAD and the branch are read beside the status, not after it: two
	// git processes on the way to a run's first request.
	type head struct{ commit, branch string }
	heads := make(chan head, 1)
	go func() {
		_, commit, branch := gitx.Head(ctx, root.Dir(), baseEnv, false)
		heads <- head{commit, branch}
	}()
	status, err := gitx.Output(ctx, root.Dir(), baseEnv, "status", "--porcelain=v1", "-z", "--branch", "--untracked-files=all", "--no-renames")
	h := <-heads
	if err != nil {
		return nil, core.Wrap(err, "not_a_repository", "cannot read the git status of "+root.Dir()).
			WithHint("baselines need a git work tree; run 'git init' or pass the repository root")
	}
	snap := &Snapshot{V: core.WireVersion, Type: "baseline", Root: root.Dir(), Head: h.commit, Branch: h.branch, Entries: []Entry{},
		Protected: sandbox.CaptureProtected(root.Dir())}
	for _, rec := range strings.Split(string(status), "\x00") {
		if strings.HasPrefix(rec, "## ") {
			snap.Status = append(snap.Status, rec)
			continue
		}
		if len(rec) < 4 {
			continue
		}
		p := rec[3:]
		snap.Status = append(snap.Status, rec[:3]+QuotePath(p))
		if confine.IsTemp(p) {
			continue // an in-progress or interrupted write, never a change
		}
		snap.Entries = append(snap.Entries, Entry{Path: p, Status: rec[:2], Fingerprint: fingerprint(root, p)})
	}
	sort.Slice(snap.Entries, func(i, j int) bool { return snap.Entries[i].Path < snap.Entries[j].Path })
	return snap, nil
}

// fingerprint identifies the working-tree state of the path git listed,
// read through the confinement root without following any symlink: a
// link is fingerprinted by its target text, so a file swapped for a link
// after the listing is never read through it, and a FIFO or device is
// refused from its O_PATH handle without blocking.
func fingerprint(root *confine.Root, p string) string {
	f, _, err := root.OpenNoFollow(p)
	switch core.CodeOf(err) {
	case "":
	case core.CodeNotFound:
		return Absent
	case confine.CodeSymlink:
		target, err := root.Readlink(p)
		if err != nil {
			return Unreadable
		}
		sum := sha256.Sum256([]byte(target))
		return SymlinkPrefix + hex.EncodeToString(sum[:])
	default:
		return Unreadable
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return Unreadable
	}
	return hex.EncodeToString(h.Sum(nil))
}

// Change is a path whose state differs from the baseline.
type Change struct {
	Path string `json:"path"`
	// Kind is "changed" (clean at baseline), "modified" (already changed at
	// baseline and changed again) or "reverted" (changed at baseline,
	// clean now).
	Kind        string `json:"kind"`
	Before      string `json:"before"`
	After       string `json:"after"`
	PreExisting bool   `json:"pre_existing"`
	Uncertain   bool   `json:"uncertain"`
	Reason      string `json:"reason,omitempty"`
}

// Summary separates pre-existing changes from changes made since.
type Summary struct {
	V           int      `json:"v"`
	Type        string   `json:"type"`
	HeadBefore  string   `json:"head_before"`
	HeadAfter   string   `json:"head_after"`
	HeadChanged bool     `json:"head_changed"`
	PreExisting []string `json:"pre_existing"`
	Changed     []Change `json:"changed"`
	// ProtectedChanged lists protected paths changed since the baseline
	// (a command or another program did it; file tools cannot). Only a
	// baseline that recorded them is compared.
	ProtectedChanged []sandbox.ProtectedChange `json:"protected_changed,omitempty"`
}

// Compare diffs two snapshots. touched lists the paths the task's own file
// tools wrote; when it is non-nil, any other changed path is uncertain
// (a process, the user or another program changed it). A nil touched
// means the caller does not track writes and no attribution is made.
func Compare(before, after *Snapshot, touched []string) *Summary {
	s := &Summary{V: core.WireVersion, Type: "diff_summary", HeadBefore: before.Head, HeadAfter: after.Head,
		HeadChanged: before.Head != after.Head, PreExisting: []string{}, Changed: []Change{}}
	mine := map[string]bool{}
	for _, t := range touched {
		mine[t] = true
	}
	if before.Protected != nil && after.Protected != nil {
		s.ProtectedChanged = sandbox.CompareProtected(before.Protected, after.Protected)
	}
	b, a := index(before), index(after)
	paths := map[string]bool{}
	for p := range b {
		paths[p] = true
	}
	for p := range a {
		paths[p] = true
	}
	sorted := make([]string, 0, len(paths))
	for p := range paths {
		sorted = append(sorted, p)
	}
	sort.Strings(sorted)
	for _, p := range sorted {
		eb, inB := b[p]
		ea, inA := a[p]
		if inB && inA && eb.Fingerprint == ea.Fingerprint && eb.Status == ea.Status {
			s.PreExisting = append(s.PreExisting, p)
			continue
		}
		c := Change{Path: p, PreExisting: inB, Before: "clean", After: "clean"}
		switch {
		case !inB:
			c.Kind, c.After = "changed", ea.Fingerprint
		case !inA:
			c.Kind, c.Before = "reverted", eb.Fingerprint
		default:
			c.Kind, c.Before, c.After = "modified", eb.Fingerprint, ea.Fingerprint
		}
		if touched != nil && !mine[p] {
			c.Uncertain, c.Reason = true, "not written by the task's file tools: a process, the user or another program changed it"
		}
		if c.Before == Unreadable || c.After == Unreadable {
			c.Uncertain, c.Reason = true, "the content could not be fingerprinted"
		}
		s.Changed = append(s.Changed, c)
	}
	return s
}

func index(s *Snapshot) map[string]Entry {
	m := map[string]Entry{}
	for _, e := range s.Entries {
		m[e.Path] = e
	}
	return m
}

// QuotePath writes a path as git's porcelain status does without -z
// (core.quotePath's default): as it is when plain, else in double quotes
// with C escapes, and octal escapes for control and non-ASCII bytes. A
// path is context for a model and text for a terminal: a newline or an
// escape byte in a file name must not become one.
func QuotePath(p string) string {
	plain := true
	for i := 0; i < len(p); i++ {
		if c := p[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' {
			plain = false
			break
		}
	}
	if plain {
		return p
	}
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(p); i++ {
		switch c := p[i]; c {
		case '\a':
			b.WriteString(`\a`)
		case '\b':
			b.WriteString(`\b`)
		case '\t':
			b.WriteString(`\t`)
		case '\n':
			b.WriteString(`\n`)
		case '\v':
			b.WriteString(`\v`)
		case '\f':
			b.WriteString(`\f`)
		case '\r':
			b.WriteString(`\r`)
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		default:
			if c < 0x20 || c >= 0x7f {
				b.WriteByte('\\')
				b.WriteByte('0' + c>>6)
				b.WriteByte('0' + c>>3&7)
				b.WriteByte('0' + c&7)
			} else {
				b.WriteByte(c)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}
