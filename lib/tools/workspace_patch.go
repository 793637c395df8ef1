package tools

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/tools/confine"
	"github.com/josecorral/fluzo/lib/tools/gitx"
)

// QueryDiffPatch reads one window of a path's unified diff against a
// baseline commit (the port's diff query with a path).
const QueryDiffPatch = "diff_patch"

// Bounds of one diff window: the answer never holds more than a window of
// lines, each cut at MaxPatchLine bytes, however large the diff is.
const (
	DefaultPatchWindow = 200
	MaxPatchWindow     = 1000
	MaxPatchLine       = 2048
)

// DiffPatchArgs ask for lines [Offset, Offset+Limit) of Path's diff
// against Head ("" when the repository had no commit).
type DiffPatchArgs struct {
	Head   string `json:"head"`
	Path   string `json:"path"`
	Offset int    `json:"offset,omitempty"`
	Limit  int    `json:"limit,omitempty"`
}

// PatchWindow is one window of a path's unified diff against the task's
// baseline commit (HEAD when the task began): hunk lines from Offset, and
// the whole diff's line and +/− counts, read by streaming it once.
type PatchWindow struct {
	Path    string   `json:"path"`
	Against string   `json:"against"` // the baseline commit, or "empty" (the repository had none)
	Offset  int      `json:"offset"`
	Total   int      `json:"total"`
	Added   int      `json:"added"`
	Removed int      `json:"removed"`
	Lines   []string `json:"lines"`
	Binary  bool     `json:"binary,omitempty"`
	// Clipped counts lines of this window cut at MaxPatchLine bytes.
	Clipped int `json:"clipped_lines,omitempty"`
}

func runDiffPatchQuery(ctx context.Context, s *Server, raw json.RawMessage) (any, error) {
	var a DiffPatchArgs
	if err := decodeArgs(raw, &a); err != nil {
		return nil, err
	}
	if a.Path == "" || a.Offset < 0 || a.Limit < 0 || a.Limit > MaxPatchWindow {
		return nil, core.Errorf(core.CodeInvalidRequest, "diff_patch needs a path, offset >= 0 and a limit of at most %d lines", MaxPatchWindow).
			WithHint(`send {"head":"...","path":"src/lib.rs","offset":0,"limit":200}`)
	}
	rel, err := s.root.Rel(a.Path)
	if err != nil {
		return nil, err
	}
	w := &PatchWindow{Path: a.Path, Against: orEmptyRepo(a.Head), Offset: a.Offset, Lines: []string{}}
	limit := a.Limit
	if limit == 0 {
		limit = DefaultPatchWindow
	}
	add := w.collector(limit)
	tracked, err := streamGitDiff(ctx, s.root.Dir(), s.childEnvOrBaseline(), a.Head, rel, add)
	if err != nil {
		return nil, err
	}
	if !tracked && w.Total == 0 && !w.Binary {
		if err := streamNewFile(s.root, rel, w, limit, add); err != nil {
			return nil, err
		}
	}
	return w, nil
}

func orEmptyRepo(head string) string {
	if head == "" {
		return "empty"
	}
	return head
}

// collector counts every hunk line and keeps those of the window.
func (w *PatchWindow) collector(limit int) func(line []byte, clipped bool) {
	return func(line []byte, clipped bool) {
		switch {
		case bytes.HasPrefix(line, []byte("+")):
			w.Added++
		case bytes.HasPrefix(line, []byte("-")):
			w.Removed++
		}
		if w.Total >= w.Offset && len(w.Lines) < limit {
			w.Lines = append(w.Lines, string(line))
			if clipped {
				w.Clipped++
			}
		}
		w.Total++
	}
}

// streamGitDiff streams git's diff of path against head, hunks only (the
// file headers are the path the view already names). tracked reports
// whether head has the path, so an untracked file is read instead.
func streamGitDiff(ctx context.Context, dir string, env []string, head, path string, add func([]byte, bool)) (bool, error) {
	if head == "" {
		return false, nil
	}
	res, err := gitx.Run(ctx, dir, env, "cat-file", "-e", head+":"+path)
	if err != nil {
		return false, err
	}
	inHunks, binary := false, false
	exit, err := gitx.Stream(ctx, dir, env, MaxPatchLine, func(line []byte, clipped bool) error {
		switch {
		case bytes.HasPrefix(line, []byte("@@")):
			inHunks = true
		case !inHunks && bytes.HasPrefix(line, []byte("Binary files ")):
			binary = true
			return gitx.ErrStop
		case !inHunks:
			return nil
		}
		add(line, clipped)
		return nil
	}, "diff", "--no-color", "--no-renames", "-U3", head, "--", ":(literal)"+path)
	if err != nil {
		return false, err
	}
	if exit != 0 {
		return false, core.Errorf(core.CodeFailed, "git could not diff %s against %s (exit %d)", path, head, exit).
			WithHint("check that the baseline commit still exists in the repository")
	}
	return res.ExitCode == 0 || binary, nil
}

// streamNewFile shows a file the baseline commit did not have as added
// lines, read through the confined root (never following a symlink); a
// binary file is marked, not shown.
func streamNewFile(root *confine.Root, path string, w *PatchWindow, limit int, add func([]byte, bool)) error {
	f, _, err := root.OpenNoFollow(path)
	if core.CodeOf(err) == core.CodeNotFound {
		return nil // deleted since: nothing to show
	}
	if err != nil {
		return err
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, binarySniff)
	if head, _ := r.Peek(binarySniff); bytes.IndexByte(head, 0) >= 0 {
		w.Binary = true
		return nil
	}
	// The hunk header needs the line count, known only at the end: it is
	// line 0, so it is placed after the count when the window starts there.
	w.Total = 1
	held := make([]byte, 0, MaxPatchLine)
	for {
		line, err := r.ReadSlice('\n')
		clipped := false
		if errors.Is(err, bufio.ErrBufferFull) {
			clipped, held = true, append(held[:0], line[:min(len(line), MaxPatchLine-1)]...)
			for errors.Is(err, bufio.ErrBufferFull) {
				_, err = r.ReadSlice('\n')
			}
			line = held
		}
		line = bytes.TrimSuffix(line, []byte("\n"))
		if len(line) > MaxPatchLine-1 {
			clipped, line = true, line[:MaxPatchLine-1]
		}
		if len(line) > 0 || err == nil {
			add(append([]byte("+"), line...), clipped)
		}
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return core.Wrap(err, core.CodeFailed, "cannot read "+path)
		}
	}
	if w.Offset == 0 {
		w.Lines = append([]string{fmt.Sprintf("@@ -0,0 +1,%d @@", w.Total-1)}, w.Lines...)
		w.Lines = w.Lines[:min(len(w.Lines), limit)]
	}
	return nil
}
