package tools

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"regexp"
	"sort"
	"strings"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/tools/discover"
)

// Discovery bounds.
const (
	MaxEntries     = 1000
	MaxMatches     = 200
	MaxMatchChars  = 300
	MaxGrepFile    = 8 << 20
	DefaultLsDepth = 2
	MaxLsDepth     = 10
)

// ListResult is what ls and glob return.
type ListResult struct {
	Path      string   `json:"path"`
	Entries   []string `json:"entries"`
	Truncated bool     `json:"truncated"`
	Note      string   `json:"note,omitempty"`
}

// scope resolves the directory a search starts from and returns the
// visible files beneath it, relative to it.
func (s *Server) scope(ctx context.Context, p string) (string, []string, bool, error) {
	if p == "" {
		p = "."
	}
	n, err := s.root.Lookup(p)
	if err != nil {
		return "", nil, false, err
	}
	if !n.IsDir() {
		return "", nil, false, core.Errorf("not_directory", "%q is not a directory", p).WithHint("give a directory as path")
	}
	all, complete := discover.Files(ctx, s.root, s.childEnvOrBaseline())
	var under []string
	for _, f := range all {
		if n.Rel == "." {
			under = append(under, f)
		} else if rest, ok := strings.CutPrefix(f, n.Rel+"/"); ok {
			under = append(under, rest)
		}
	}
	return n.Rel, under, complete, nil
}

func truncNote(complete bool) string {
	if complete {
		return ""
	}
	return "the directory walk stopped early; results are incomplete"
}

type lsArgs struct {
	Path  string `json:"path,omitempty"`
	Depth int    `json:"depth,omitempty"`
}

func runLs(ctx context.Context, s *Server, _ string, raw json.RawMessage) (any, error) {
	var a lsArgs
	if err := decodeArgs(raw, &a); err != nil {
		return nil, err
	}
	depth := a.Depth
	if depth <= 0 {
		depth = DefaultLsDepth
	}
	depth = min(depth, MaxLsDepth)
	base, files, complete, err := s.scope(ctx, a.Path)
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	for _, f := range files {
		segs := strings.Split(f, "/")
		for i := 1; i <= len(segs) && i <= depth; i++ {
			e := strings.Join(segs[:i], "/")
			if i < len(segs) {
				e += "/"
			}
			seen[e] = true
		}
	}
	entries := make([]string, 0, len(seen))
	for e := range seen {
		entries = append(entries, e)
	}
	sort.Strings(entries)
	res := &ListResult{Path: base, Note: truncNote(complete)}
	res.Entries, res.Truncated = bound(entries, MaxEntries)
	return res, nil
}

func bound(list []string, n int) ([]string, bool) {
	if len(list) <= n {
		if list == nil {
			list = []string{}
		}
		return list, false
	}
	return append(list[:n:n], "[fluzo: more entries omitted; narrow the path or pattern]"), true
}

type globArgs struct {
	Pattern string `json:"pattern"`
	Path    string `json:"path,omitempty"`
}

func runGlob(ctx context.Context, s *Server, _ string, raw json.RawMessage) (any, error) {
	var a globArgs
	if err := decodeArgs(raw, &a); err != nil {
		return nil, err
	}
	if err := required("pattern", a.Pattern); err != nil {
		return nil, err
	}
	if !discover.ValidPattern(a.Pattern) {
		return nil, core.Errorf(core.CodeInvalidRequest, "%q is not a valid glob", a.Pattern).WithHint("use *, ?, [a-z] and ** segments")
	}
	base, files, complete, err := s.scope(ctx, a.Path)
	if err != nil {
		return nil, err
	}
	var hits []string
	for _, f := range files {
		if discover.MatchName(a.Pattern, f) {
			hits = append(hits, f)
		}
	}
	res := &ListResult{Path: base, Note: truncNote(complete)}
	res.Entries, res.Truncated = bound(hits, MaxEntries)
	return res, nil
}

type grepArgs struct {
	Pattern string `json:"pattern"`
	Path    string `json:"path,omitempty"`
	Include string `json:"include,omitempty"`
	Literal bool   `json:"literal,omitempty"`
}

// Match is one grep hit.
type Match struct {
	Path string `json:"path"`
	Line int    `json:"line"`
	Text string `json:"text"`
}

// GrepResult is what grep returns.
type GrepResult struct {
	Path      string  `json:"path"`
	Matches   []Match `json:"matches"`
	Truncated bool    `json:"truncated"`
	Skipped   int     `json:"skipped_files,omitempty"`
	Note      string  `json:"note,omitempty"`
}

func runGrep(ctx context.Context, s *Server, _ string, raw json.RawMessage) (any, error) {
	var a grepArgs
	if err := decodeArgs(raw, &a); err != nil {
		return nil, err
	}
	if err := required("pattern", a.Pattern); err != nil {
		return nil, err
	}
	expr := a.Pattern
	if a.Literal {
		expr = regexp.QuoteMeta(expr)
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		return nil, core.Errorf(core.CodeInvalidRequest, "the pattern is not a valid regular expression: %v", err).
			WithHint("use RE2 syntax, or set literal to search for the text as written")
	}
	base, files, complete, err := s.scope(ctx, a.Path)
	if err != nil {
		return nil, err
	}
	res := &GrepResult{Path: base, Matches: []Match{}, Note: truncNote(complete)}
	for _, f := range files {
		if ctx.Err() != nil {
			return nil, core.Errorf(core.CodeCancelled, "grep was cancelled")
		}
		if a.Include != "" && !discover.MatchName(a.Include, f) {
			continue
		}
		rel := f
		if base != "." {
			rel = base + "/" + f
		}
		if !s.grepFile(rel, re, res) {
			break
		}
	}
	return res, nil
}

// grepFile scans one file through the confined root; it returns false
// once the match limit is reached.
func (s *Server) grepFile(rel string, re *regexp.Regexp, res *GrepResult) bool {
	f, n, err := s.root.OpenRead(rel)
	if err != nil {
		res.Skipped++
		return true
	}
	defer f.Close()
	if n.Stat.Size > MaxGrepFile {
		res.Skipped++
		return true
	}
	rd := bufio.NewReaderSize(io.LimitReader(f, MaxGrepFile), 64<<10)
	if head, _ := rd.Peek(8000); bytes.IndexByte(head, 0) >= 0 {
		return true
	}
	line := 0
	for {
		text, err := rd.ReadString('\n')
		if text == "" && err != nil {
			return true
		}
		line++
		text = strings.TrimRight(text, "\r\n")
		if !re.MatchString(text) {
			continue
		}
		if len(res.Matches) >= MaxMatches {
			res.Truncated = true
			res.Note = "more matches omitted; narrow the pattern, path or include"
			return false
		}
		if len(text) > MaxMatchChars {
			text = text[:MaxMatchChars] + "…"
		}
		res.Matches = append(res.Matches, Match{Path: rel, Line: line, Text: text})
	}
}
