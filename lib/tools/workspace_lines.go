package tools

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"strconv"
	"strings"

	"github.com/josecorral/fluzo/lib/tools/confine"
	"github.com/josecorral/fluzo/lib/tools/gitx"
)

// LineCountsArgs ask for the line counts of changed paths against Head
// (the HEAD a task began at; "" when there was no commit). Paths are the
// ones whose starting content is known; New are those among them that are
// new files, counted whole when git has no count for them.
type LineCountsArgs struct {
	Head  string   `json:"head"`
	Paths []string `json:"paths"`
	New   []string `json:"new,omitempty"`
}

// LineCount is one path's count; nil is unknown (binary, unreadable),
// never zero.
type LineCount struct {
	Added   *int `json:"added"`
	Removed *int `json:"removed"`
}

// LineCounts is the answer: only paths with an answer appear.
type LineCounts struct {
	Counts map[string]LineCount `json:"counts"`
}

// lineCounts: a path clean at baseline held Head's content, so git's
// numstat of Head against the working tree is its count; a new path git
// does not track there counts its lines as added.
func lineCounts(ctx context.Context, r *confine.Root, env []string, a LineCountsArgs) LineCounts {
	out := LineCounts{Counts: map[string]LineCount{}}
	if len(a.Paths) == 0 {
		return out
	}
	if a.Head != "" {
		for p, st := range numstat(ctx, r.Dir(), env, a.Head, a.Paths) {
			out.Counts[p] = st
		}
	}
	for _, p := range a.New {
		if _, ok := out.Counts[p]; ok {
			continue
		}
		if n, ok := fileLines(r, p); ok {
			zero := 0
			out.Counts[p] = LineCount{Added: &n, Removed: &zero}
		}
	}
	return out
}

// numstat reads git's per-path counts of head against the working tree;
// a binary path ("-" counts) or a failed git leaves the paths unknown.
func numstat(ctx context.Context, dir string, env []string, head string, paths []string) map[string]LineCount {
	args := append([]string{"diff", "--numstat", "-z", "--no-renames", head, "--"}, literalPathspecs(paths)...)
	raw, err := gitx.Output(ctx, dir, env, args...)
	stats := map[string]LineCount{}
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
			stats[path] = LineCount{} // binary: known to differ, count unknown
			continue
		}
		stats[path] = LineCount{Added: &a, Removed: &r}
	}
	return stats
}

// literalPathspecs makes each path a literal pathspec, so a name with
// glob or magic characters matches only itself.
func literalPathspecs(paths []string) []string {
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
