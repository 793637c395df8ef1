package diffview

import (
	"encoding/json"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/tui/markdown"
	"github.com/josecorral/fluzo/lib/tui/text"
)

// Window bounds: a request asks for at least MinWindow lines (three
// screens when the screen is taller) and never more than MaxWindow, the
// port's own limit, so the pager holds at most MaxWindow lines and their
// rows whatever the size of the diff.
const (
	MinWindow = 200
	MaxWindow = 1000
)

// Request is one window to ask the port for.
type Request struct {
	Path          string
	Offset, Limit int
}

// Window is one window of a path's unified diff as the port answers it.
type Window struct {
	Path    string   `json:"path"`
	Against string   `json:"against"`
	Offset  int      `json:"offset"`
	Total   int      `json:"total"`
	Added   int      `json:"added"`
	Removed int      `json:"removed"`
	Lines   []string `json:"lines"`
	Binary  bool     `json:"binary"`
}

// ParseWindow reads the "patch" of a diff answer.
func ParseWindow(raw json.RawMessage) (Window, error) {
	var a struct {
		Patch *Window `json:"patch"`
	}
	if err := json.Unmarshal(raw, &a); err != nil || a.Patch == nil {
		return Window{}, core.Errorf(core.CodeInvalidRequest, "the diff window answer could not be read").With("field", "patch")
	}
	return *a.Patch, nil
}

// Pager pages through one path's diff. Top is the first visible line in
// the diff's line space; the lines held are one window around it.
type Pager struct {
	path  string
	lang  string
	top   int
	total int // -1 until the first window answers
	// offset and rows are the held window: its first line and the
	// highlighted rows of its lines (the lines themselves are not kept).
	offset int
	rows   []text.Line
	want   *Request
	info   Window // the last window's totals and flags, without lines
}

// Open starts paging path's diff from its first line; the request is for
// the port.
func (p *Pager) Open(path string, rows int) Request {
	*p = Pager{path: path, lang: markdown.LanguageOfPath(path), total: -1}
	return p.ask(0, rows)
}

// Path is the path being paged ("" before Open).
func (p *Pager) Path() string { return p.path }

// Pending is the window asked for and not yet answered.
func (p *Pager) Pending() *Request { return p.want }

func windowFor(rows int) int { return min(max(MinWindow, 3*rows), MaxWindow) }

func (p *Pager) ask(offset, rows int) Request {
	r := Request{Path: p.path, Offset: offset, Limit: windowFor(rows)}
	p.want = &r
	return r
}

// Fill takes a window answer; one that is not the window asked for (an
// older page, another path) is dropped. It reports whether it was taken.
func (p *Pager) Fill(w Window) bool {
	if p.want == nil || w.Path != p.path || w.Offset != p.want.Offset {
		return false
	}
	// The bound holds by construction: never more than the limit asked.
	if len(w.Lines) > p.want.Limit {
		w.Lines = w.Lines[:p.want.Limit]
	}
	p.want = nil
	p.offset, p.total = w.Offset, w.Total
	p.rows = Rows(w.Lines, p.lang)
	p.info = w
	p.info.Lines = nil
	p.top = min(p.top, max(p.total-1, 0))
	return true
}

// Info is the last window's whole-diff figures (Lines left empty).
func (p *Pager) Info() (Window, bool) { return p.info, p.total >= 0 }

// Top is the first visible line.
func (p *Pager) Top() int { return p.top }

// Total is the diff's line count, -1 while unknown.
func (p *Pager) Total() int { return p.total }

// Held is how many rows the pager holds (its memory, in lines).
func (p *Pager) Held() int { return len(p.rows) }

// Scroll moves the view by delta lines on a screen of rows rows (End is a
// large delta) and returns the window to ask for when the visible lines
// are not all held.
func (p *Pager) Scroll(delta, rows int) *Request {
	if p.path == "" {
		return nil
	}
	last := 0
	if p.total > 0 {
		last = max(p.total-rows, 0)
	}
	p.top = min(max(p.top+delta, 0), last)
	return p.need(rows)
}

// need asks for a window when the view leaves the held one (and the same
// window is not already asked for).
func (p *Pager) need(rows int) *Request {
	if p.total < 0 {
		return nil // the first window is on its way
	}
	end := min(p.top+rows, p.total)
	if p.top >= p.offset && end <= p.offset+len(p.rows) {
		return nil
	}
	// The window runs ahead in the direction of travel, so a pass pages
	// a window's worth before asking again.
	limit := windowFor(rows)
	offset := p.top
	if p.top < p.offset {
		offset = max(p.top+rows-limit, 0)
	}
	if p.want != nil && p.want.Offset == offset {
		return nil
	}
	r := p.ask(offset, rows)
	return &r
}

// Visible is the rows from Top, rows long; a line not held yet is nil
// (the caller shows it as loading).
func (p *Pager) Visible(rows int) []text.Line {
	var out []text.Line
	for i := p.top; i < p.top+rows && (p.total < 0 || i < p.total); i++ {
		j := i - p.offset
		if j >= 0 && j < len(p.rows) {
			out = append(out, p.rows[j])
		} else {
			out = append(out, nil)
		}
		if p.total < 0 {
			break
		}
	}
	return out
}
