package agent

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"strconv"
	"strings"

	"github.com/josecorral/fluzo/lib/tools/baseline"
	"github.com/josecorral/fluzo/lib/tools/confine"
	"github.com/josecorral/fluzo/lib/tools/gitx"
)

// countedChange is a changed path with its line counts against what the
// path held when the task began. Added and Removed are nil when that is
// not known: the path already had user changes at baseline (only their
// fingerprint was kept, not their content), was reverted, is binary, or
// could not be read — unknown is never reported as 0.
type countedChange struct {
	baseline.Change
	Added   *int `json:"added,omitempty"`
	Removed *int `json:"removed,omitempty"`
}

// countedSummary is the diff summary the port and the diff.summary event
// carry: baseline's summary with counted changes.
type countedSummary struct {
	*baseline.Summary
	Changed []countedChange `json:"changed"`
}

// countLines is the one place the diff summary's line counts are made,
// for the live diff query and for the summary recorded at the end alike.
// A path clean at baseline held HEAD-before's content, so git's numstat
// of HEAD-before against the working tree is its count; a path git does
// not track there (untracked, or no commit yet) counts its lines as added.
func countLines(ctx context.Context, root *confine.Root, env []string, s *baseline.Summary) countedSummary {
	out := countedSummary{Summary: s, Changed: make([]countedChange, len(s.Changed))}
	var paths []string
	for i, c := range s.Changed {
		out.Changed[i].Change = c
		if countable(c) {
			paths = append(paths, c.Path)
		}
	}
	if len(paths) == 0 {
		return out
	}
	stats := map[string][2]*int{}
	if s.HeadBefore != "" {
		stats = numstat(ctx, root.Dir(), env, s.HeadBefore, paths)
	}
	for i := range out.Changed {
		c := &out.Changed[i]
		if !countable(c.Change) {
			continue
		}
		if st, ok := stats[c.Path]; ok {
			c.Added, c.Removed = st[0], st[1]
			continue
		}
		if c.Kind == "added" {
			if n, ok := fileLines(root, c.Path); ok {
				zero := 0
				c.Added, c.Removed = &n, &zero
			}
		}
	}
	return out
}

// countable: only a path clean at baseline has a known starting content.
func countable(c baseline.Change) bool {
	return !c.PreExisting && c.Kind != "reverted" && c.Before != baseline.Unreadable && c.After != baseline.Unreadable
}

// numstat reads git's per-path counts of head against the working tree;
// a binary path ("-" counts) or a failed git leaves the paths unknown.
func numstat(ctx context.Context, dir string, env []string, head string, paths []string) map[string][2]*int {
	args := append([]string{"diff", "--numstat", "-z", "--no-renames", head, "--"}, pathspecs(paths)...)
	raw, err := gitx.Output(ctx, dir, env, args...)
	stats := map[string][2]*int{}
	if err != nil {
		return stats
	}
	for _, rec := range strings.Split(string(raw), "\x00") {
		added, rest, ok1 := strings.Cut(rec, "\t")
		removed, path, ok2 := strings.Cut(rest, "\t")
		if !ok1 || !ok2 {
			continue
		}
		a, errA := strconv.Atoi(added)
		r, errR := strconv.Atoi(removed)
		if errA != nil || errR != nil {
			stats[path] = [2]*int{} // binary: known to differ, count unknown
			continue
		}
		stats[path] = [2]*int{&a, &r}
	}
	return stats
}

// pathspecs makes each path a literal pathspec, so a name with glob or
// magic characters matches only itself.
func pathspecs(paths []string) []string {
	out := make([]string, len(paths))
	for i, p := range paths {
		out[i] = ":(literal)" + p
	}
	return out
}

// binarySniff is how much of a file is checked for a NUL byte, git's own
// rule for calling a file binary.
const binarySniff = 8000

// fileLines counts the lines of a new file through the confined root
// (never following a symlink); a binary or unreadable file is unknown.
func fileLines(root *confine.Root, p string) (int, bool) {
	f, _, err := root.OpenNoFollow(p)
	if err != nil {
		return 0, false
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, binarySniff)
	head, err := r.Peek(binarySniff)
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, bufio.ErrBufferFull) {
		return 0, false
	}
	if bytes.IndexByte(head, 0) >= 0 {
		return 0, false
	}
	n, last, buf := 0, byte('\n'), make([]byte, 32*1024)
	for {
		k, err := r.Read(buf)
		if k > 0 {
			n += bytes.Count(buf[:k], []byte{'\n'})
			last = buf[k-1]
		}
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return 0, false
		}
	}
	if last != '\n' {
		n++ // a last line without its newline is still a line, as git counts it
	}
	return n, true
}
