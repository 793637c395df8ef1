package agent

import (
	"bytes"
	"context"
	"io"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/tools/confine"
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
	r, err := confine.Open(root, "")
	if err != nil {
		return nil, err
	}
	defer r.Close()
	var found []Instructions
	for _, p := range paths {
		in, ok, err := readInstructions(r, p)
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

// readInstructions reads one AGENTS.md through the confinement root,
// following no symlink and opening no special file, so instructions cannot
// pull content from outside the root or block on a FIFO. A path that is
// gone, a link, a FIFO or protected is skipped: git listed a name, not a
// promise.
func readInstructions(r *confine.Root, rel string) (Instructions, bool, error) {
	f, _, err := r.OpenNoFollow(rel)
	if err != nil {
		switch core.CodeOf(err) {
		case confine.CodeAccessDenied, core.CodeFailed, confine.CodeConfinementUnavailable:
			return Instructions{}, false, core.Wrap(err, core.CodeFailed, "cannot read "+rel).
				WithHint("check the file's permissions")
		}
		return Instructions{}, false, nil
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
