package agent

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

// Bounds of one diff window: the port never holds more than a window of
// lines, each cut at maxPatchLine bytes, however large the diff is.
const (
	defaultPatchWindow = 200
	maxPatchWindow     = 1000
	maxPatchLine       = 2048
)

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
	// Clipped counts lines of this window cut at maxPatchLine bytes.
	Clipped int `json:"clipped_lines,omitempty"`
}

func checkWindow(a diffArgs) error {
	switch {
	case a.Path == "" && (a.Offset != 0 || a.Limit != 0):
		return core.Errorf(core.CodeInvalidRequest, "diff offset and limit page one path's diff, and no path was sent").
			WithHint(`add "path": one of the summary's changed or pre-existing paths`).With("field", "path")
	case a.Offset < 0:
		return core.Errorf(core.CodeInvalidRequest, "diff offset must not be negative, got %d", a.Offset).WithHint("start from 0").With("field", "offset")
	case a.Limit < 0 || a.Limit > maxPatchWindow:
		return core.Errorf(core.CodeInvalidRequest, "diff limit must be between 0 and %d lines, got %d", maxPatchWindow, a.Limit).
			WithHint("omit limit for %d lines per window", defaultPatchWindow).With("field", "limit")
	}
	return nil
}

// patchWindow reads one window of a.Path's diff. Only a path the summary
// lists can be asked for: the query never reads another file.
func (p *Port) patchWindow(ctx context.Context, summary json.RawMessage, a diffArgs) (*PatchWindow, error) {
	var s struct {
		HeadBefore  string   `json:"head_before"`
		PreExisting []string `json:"pre_existing"`
		Changed     []struct {
			Path string `json:"path"`
		} `json:"changed"`
	}
	if err := json.Unmarshal(summary, &s); err != nil {
		return nil, core.Wrap(err, core.CodeStorageError, "the task's diff summary could not be read")
	}
	listed := false
	for _, c := range s.Changed {
		listed = listed || c.Path == a.Path
	}
	for _, pre := range s.PreExisting {
		listed = listed || pre == a.Path
	}
	if !listed {
		return nil, core.Errorf(core.CodeNotFound, "%s is not in task %s's diff", a.Path, a.Task).
			WithHint("ask for the summary first and send one of its paths").With("field", "path")
	}
	w := &PatchWindow{Path: a.Path, Against: orEmptyRepo(s.HeadBefore), Offset: a.Offset, Lines: []string{}}
	limit := a.Limit
	if limit == 0 {
		limit = defaultPatchWindow
	}
	add := w.collector(limit)
	tracked, err := p.streamGitDiff(ctx, s.HeadBefore, a.Path, add)
	if err != nil {
		return nil, err
	}
	if !tracked && w.Total == 0 && !w.Binary {
		if err := p.streamNewFile(a.Path, w, limit, add); err != nil {
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
func (p *Port) streamGitDiff(ctx context.Context, head, path string, add func([]byte, bool)) (bool, error) {
	if head == "" {
		return false, nil
	}
	res, err := gitx.Run(ctx, p.Owner.Root, gitBaseline(), "cat-file", "-e", head+":"+path)
	if err != nil {
		return false, err
	}
	inHunks, binary := false, false
	exit, err := gitx.Stream(ctx, p.Owner.Root, gitBaseline(), maxPatchLine, func(line []byte, clipped bool) error {
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
func (p *Port) streamNewFile(path string, w *PatchWindow, limit int, add func([]byte, bool)) error {
	root, err := confine.Open(p.Owner.Root, "")
	if err != nil {
		return err
	}
	defer root.Close()
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
	held := make([]byte, 0, maxPatchLine)
	for {
		line, err := r.ReadSlice('\n')
		clipped := false
		if errors.Is(err, bufio.ErrBufferFull) {
			clipped, held = true, append(held[:0], line[:min(len(line), maxPatchLine-1)]...)
			for errors.Is(err, bufio.ErrBufferFull) {
				_, err = r.ReadSlice('\n')
			}
			line = held
		}
		line = bytes.TrimSuffix(line, []byte("\n"))
		if len(line) > maxPatchLine-1 {
			clipped, line = true, line[:maxPatchLine-1]
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
