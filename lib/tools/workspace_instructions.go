package tools

import (
	"bytes"
	"context"
	"io"
	"path"
	"sort"
	"strings"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/tools/confine"
	"github.com/josecorral/fluzo/lib/tools/gitx"
)

// Limits on repository instructions placed in the initial context. They
// keep the context small (PRD §16); the agent can read more through tools.
const (
	MaxInstructionFiles = 32
	MaxInstructionBytes = 16 << 10
)

// InstructionFile is one AGENTS.md file and the subtree it governs.
type InstructionFile struct {
	Path      string `json:"path"`  // slash path relative to the workspace root
	Scope     string `json:"scope"` // directory it applies to, "." for the whole workspace
	Content   string `json:"content"`
	Truncated bool   `json:"truncated,omitempty"`
}

// AgentsMD is the answer to the agents_md query, outermost file first.
type AgentsMD struct {
	Files []InstructionFile `json:"files"`
}

// discoverInstructions finds the AGENTS.md files git would show (tracked,
// or untracked and not ignored), outermost first, so that nested files —
// which refine their subtree — come after the ones they refine.
func discoverInstructions(ctx context.Context, r *confine.Root, env []string) ([]InstructionFile, error) {
	// The pathspec has git send only AGENTS.md files, not the whole
	// tree's listing; the name is still checked below.
	out, err := gitx.Output(ctx, r.Dir(), env, "ls-files", "--cached", "--others", "--exclude-standard", "-z", "--", "AGENTS.md", ":(glob)**/AGENTS.md")
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
	paths = dedupeSorted(paths)
	if len(paths) > MaxInstructionFiles {
		paths = paths[:MaxInstructionFiles]
	}
	found := []InstructionFile{}
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

func dedupeSorted(sorted []string) []string {
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
func readInstructions(r *confine.Root, rel string) (InstructionFile, bool, error) {
	f, _, err := r.OpenNoFollow(rel)
	if err != nil {
		switch core.CodeOf(err) {
		case confine.CodeAccessDenied, core.CodeFailed, confine.CodeConfinementUnavailable:
			return InstructionFile{}, false, core.Wrap(err, core.CodeFailed, "cannot read "+rel).
				WithHint("check the file's permissions")
		}
		return InstructionFile{}, false, nil
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxInstructionBytes+1))
	if err != nil {
		return InstructionFile{}, false, core.Wrap(err, core.CodeFailed, "cannot read "+rel).
			WithHint("check the file's permissions")
	}
	in := InstructionFile{Path: rel, Scope: path.Dir(rel)}
	if len(data) > MaxInstructionBytes {
		data, in.Truncated = data[:MaxInstructionBytes], true
	}
	in.Content = string(data)
	return in, true, nil
}
