package agent

import (
	"bytes"
	"context"
	"io"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/josecorral/fluzo/lib/core"
)

// Limits on repository instructions placed in the initial context. They
// keep the context small (PRD §16); the agent can read more through tools.
const (
	maxInstructionFiles = 32
	maxInstructionBytes = 16 << 10
)

// Instructions is one AGENTS.md file and the subtree it governs.
type Instructions struct {
	Path      string // slash path relative to the workspace root
	Scope     string // directory it applies to, "." for the whole workspace
	Content   string
	Truncated bool
}

// Applies reports whether the instructions govern the workspace path p.
func (in Instructions) Applies(p string) bool {
	p = path.Clean(strings.TrimPrefix(filepath.ToSlash(p), "./"))
	return in.Scope == "." || p == in.Scope || strings.HasPrefix(p, in.Scope+"/")
}

// DiscoverInstructions finds the AGENTS.md files git would show (tracked,
// or untracked and not ignored), outermost first, so that nested files —
// which refine their subtree — come after the ones they refine.
func DiscoverInstructions(ctx context.Context, root string) ([]Instructions, error) {
	out, err := inspectGit(ctx, root, "ls-files", "--cached", "--others", "--exclude-standard", "-z")
	if err != nil {
		return nil, err
	}
	var paths []string
	for _, p := range bytes.Split(out, []byte{0}) {
		s := string(p)
		if path.Base(s) == "AGENTS.md" && !strings.HasPrefix(s, ".fluzodrive/") {
			paths = append(paths, s)
		}
	}
	sort.Slice(paths, func(i, j int) bool {
		di, dj := strings.Count(paths[i], "/"), strings.Count(paths[j], "/")
		if di != dj {
			return di < dj
		}
		return paths[i] < paths[j]
	})
	paths = dedupe(paths)
	if len(paths) > maxInstructionFiles {
		paths = paths[:maxInstructionFiles]
	}
	var found []Instructions
	for _, p := range paths {
		in, ok, err := readInstructions(root, p)
		if err != nil {
			return nil, err
		}
		if ok {
			found = append(found, in)
		}
	}
	return found, nil
}

func dedupe(sorted []string) []string {
	out := sorted[:0]
	for i, s := range sorted {
		if i == 0 || s != sorted[i-1] {
			out = append(out, s)
		}
	}
	return out
}

// readInstructions reads one AGENTS.md, refusing symlinks and special
// files so that instructions cannot pull content from outside the root.
func readInstructions(root, rel string) (Instructions, bool, error) {
	full := filepath.Join(root, filepath.FromSlash(rel))
	fi, err := os.Lstat(full)
	if err != nil || !fi.Mode().IsRegular() {
		return Instructions{}, false, nil // deleted in the working tree, or not a plain file
	}
	f, err := os.Open(full)
	if err != nil {
		return Instructions{}, false, core.Wrap(err, core.CodeFailed, "cannot read "+rel).
			WithHint("check the file's permissions")
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxInstructionBytes+1))
	if err != nil {
		return Instructions{}, false, core.Wrap(err, core.CodeFailed, "cannot read "+rel).
			WithHint("check the file's permissions")
	}
	in := Instructions{Path: rel, Scope: path.Dir(rel)}
	if len(data) > maxInstructionBytes {
		data, in.Truncated = data[:maxInstructionBytes], true
	}
	in.Content = string(data)
	return in, true, nil
}

// ApplicableTo returns the instructions that govern path p, outermost
// first.
func ApplicableTo(all []Instructions, p string) []Instructions {
	var out []Instructions
	for _, in := range all {
		if in.Applies(p) {
			out = append(out, in)
		}
	}
	return out
}
