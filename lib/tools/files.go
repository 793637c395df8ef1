package tools

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/josecorral/fluzo/lib/core"
)

// View limits: lines shown by default and at most, characters per line,
// and bytes of numbered content per answer.
const (
	ViewDefaultLines = 2000
	ViewMaxLines     = 10000
	ViewLineChars    = 2000
	ViewMaxBytes     = 256 << 10
)

// Absent is the expect_version that asks for a file to be created.
const Absent = "absent"

// Version returns the content version used by view, write and edit.
func Version(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

type viewArgs struct {
	Path   string `json:"path"`
	Offset int    `json:"offset,omitempty"`
	Limit  int    `json:"limit,omitempty"`
}

// ViewResult is what view returns.
type ViewResult struct {
	Path       string `json:"path"`
	Version    string `json:"version"`
	Content    string `json:"content"`
	FirstLine  int    `json:"first_line"`
	LinesShown int    `json:"lines_shown"`
	TotalLines int    `json:"total_lines"`
	Binary     bool   `json:"binary,omitempty"`
	Truncated  bool   `json:"truncated"`
	NextOffset int    `json:"next_offset,omitempty"`
}

func decodeArgs(raw json.RawMessage, v any) error { return core.DecodeStrict(raw, v) }

func required(name, value string) error {
	if value == "" {
		return core.Errorf(core.CodeInvalidRequest, "the argument %q is required", name).WithHint("see 'fluzo-tool schema'")
	}
	return nil
}

func runView(_ context.Context, s *Server, _ string, raw json.RawMessage) (any, error) {
	var a viewArgs
	if err := decodeArgs(raw, &a); err != nil {
		return nil, err
	}
	if err := required("path", a.Path); err != nil {
		return nil, err
	}
	if a.Offset < 0 || a.Limit < 0 {
		return nil, core.Errorf(core.CodeInvalidRequest, "offset and limit cannot be negative").WithHint("offset counts lines to skip from the start")
	}
	limit := a.Limit
	if limit == 0 {
		limit = ViewDefaultLines
	}
	limit = min(limit, ViewMaxLines)
	f, n, err := s.root.OpenRead(a.Path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	h := sha256.New()
	rd := bufio.NewReaderSize(io.TeeReader(f, h), 64<<10)
	res := &ViewResult{Path: n.Rel, FirstLine: a.Offset + 1}
	head, _ := rd.Peek(8000)
	res.Binary = bytes.IndexByte(head, 0) >= 0
	var out strings.Builder
	line := 0
	for {
		text, long, ok := boundedLine(rd, ViewLineChars)
		if !ok {
			break
		}
		line++
		if res.Binary || line <= a.Offset {
			continue
		}
		if res.LinesShown >= limit || out.Len() >= ViewMaxBytes {
			res.Truncated = true
			continue
		}
		text = strings.TrimRight(text, "\r")
		if long {
			text += "… [line truncated]"
		}
		fmt.Fprintf(&out, "%6d\t%s\n", line, text)
		res.LinesShown++
	}
	if _, err := io.Copy(h, rd); err != nil {
		return nil, core.Wrap(err, core.CodeFailed, "cannot read "+n.Rel)
	}
	res.TotalLines = line
	res.Version = hex.EncodeToString(h.Sum(nil))
	if res.Truncated {
		res.NextOffset = a.Offset + res.LinesShown
		fmt.Fprintf(&out, "[fluzo: output truncated after line %d of %d; view again with offset %d]\n", res.NextOffset, line, res.NextOffset)
	}
	if res.Binary {
		out.WriteString("[fluzo: binary file; content not shown]\n")
	}
	res.Content = out.String()
	return res, nil
}

// boundedLine reads one line, keeping at most max bytes of it in memory
// (the rest is read and dropped, so a one-line gigabyte file costs no
// more than a short one). ok is false at the end of the input.
func boundedLine(rd *bufio.Reader, max int) (text string, long, ok bool) {
	var buf []byte
	total := 0
	for {
		chunk, isPrefix, err := rd.ReadLine()
		if err != nil {
			return string(buf), total > max, total > 0
		}
		total += len(chunk)
		if room := max - len(buf); room > 0 {
			buf = append(buf, chunk[:min(room, len(chunk))]...)
		}
		if !isPrefix {
			return string(buf), total > max, true
		}
	}
}

type writeArgs struct {
	Path          string  `json:"path"`
	Content       *string `json:"content"`
	ExpectVersion string  `json:"expect_version"`
}

// WriteResult is what write and edit return.
type WriteResult struct {
	Path         string `json:"path"`
	Version      string `json:"version"`
	Bytes        int    `json:"bytes"`
	Created      bool   `json:"created,omitempty"`
	Replacements int    `json:"replacements,omitempty"`
}

func runWrite(_ context.Context, s *Server, _ string, raw json.RawMessage) (any, error) {
	var a writeArgs
	if err := decodeArgs(raw, &a); err != nil {
		return nil, err
	}
	if err := required("path", a.Path); err != nil {
		return nil, err
	}
	if a.Content == nil {
		return nil, required("content", "")
	}
	if err := required("expect_version", a.ExpectVersion); err != nil {
		return nil, err
	}
	t, err := s.root.Locate(a.Path, a.ExpectVersion == Absent)
	if err != nil {
		return nil, err
	}
	defer t.Close()
	cur, err := t.Current()
	if err != nil {
		return nil, err
	}
	if err := checkVersion(a.Path, a.ExpectVersion, t.Exists, cur); err != nil {
		return nil, err
	}
	data := []byte(*a.Content)
	if err := t.Replace(data); err != nil {
		return nil, err
	}
	return &WriteResult{Path: t.Rel, Version: Version(data), Bytes: len(data), Created: !t.Exists}, nil
}

func checkVersion(path, expect string, exists bool, cur []byte) error {
	actual := Absent
	if exists {
		actual = Version(cur)
	}
	if expect == actual {
		return nil
	}
	return core.Errorf(CodeStaleVersion, "%q is at version %s, not the expected %s; nothing was written", path, short(actual), short(expect)).
		WithHint("view the file again and base the change on its current content").
		With("path", path).With("actual_version", actual)
}

func short(v string) string {
	if len(v) > 12 {
		return v[:12]
	}
	return v
}

type editArgs struct {
	Path          string `json:"path"`
	OldString     string `json:"old_string"`
	NewString     string `json:"new_string"`
	ReplaceAll    bool   `json:"replace_all,omitempty"`
	ExpectVersion string `json:"expect_version"`
}

func runEdit(_ context.Context, s *Server, _ string, raw json.RawMessage) (any, error) {
	var a editArgs
	if err := decodeArgs(raw, &a); err != nil {
		return nil, err
	}
	for _, r := range [][2]string{{"path", a.Path}, {"old_string", a.OldString}, {"expect_version", a.ExpectVersion}} {
		if err := required(r[0], r[1]); err != nil {
			return nil, err
		}
	}
	if a.OldString == a.NewString {
		return nil, core.Errorf(core.CodeInvalidRequest, "old_string and new_string are identical").WithHint("an edit must change something")
	}
	t, err := s.root.Locate(a.Path, false)
	if err != nil {
		return nil, err
	}
	defer t.Close()
	if !t.Exists {
		return nil, core.Errorf(core.CodeNotFound, "%q does not exist", a.Path).WithHint(`create it with write and expect_version "absent"`)
	}
	cur, err := t.Current()
	if err != nil {
		return nil, err
	}
	if err := checkVersion(a.Path, a.ExpectVersion, true, cur); err != nil {
		return nil, err
	}
	count := strings.Count(string(cur), a.OldString)
	switch {
	case count == 0:
		return nil, core.Errorf(CodeOldStringNotFound, "old_string does not occur in %q; nothing was written", a.Path).
			WithHint("view the file and copy the exact text, including whitespace")
	case count > 1 && !a.ReplaceAll:
		return nil, core.Errorf(CodeOldStringAmbiguous, "old_string occurs %d times in %q; nothing was written", count, a.Path).
			WithHint("include more surrounding lines to make it unique, or set replace_all").With("occurrences", count)
	}
	n := 1
	if a.ReplaceAll {
		n = -1
	}
	data := []byte(strings.Replace(string(cur), a.OldString, a.NewString, n))
	if err := t.Replace(data); err != nil {
		return nil, err
	}
	return &WriteResult{Path: t.Rel, Version: Version(data), Bytes: len(data), Replacements: count}, nil
}
