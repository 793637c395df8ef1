// Package pager is the bounded-window model behind fluzo-tui's history
// views (the sessions list, a session's replay timeline): it holds at
// most a few pages of rows, whatever the size of the history, asks for
// the next or previous page as the selection nears an edge, and drops
// pages from the far end as new ones arrive. It does no I/O: the view
// sends the request it names and hands the answer back.
package pager

// Page is one answered page: the rows read from Cursor, the cursor of the
// page after it, and whether one follows.
type Page[T any] struct {
	Gen    int
	Cursor int64
	Next   int64
	More   bool
	Rows   []T
}

// Request names the page the window wants: fetch from Cursor, and hand
// the answer back with this Gen (an answer of an older Gen is stale).
type Request struct {
	Gen    int
	Cursor int64
	index  int // the page's position in the history
}

// MaxCheckpoints bounds the page cursors kept for paging back: past it the
// oldest are forgotten, and paging back beyond them restarts from the
// beginning. 4096 cursors are 32 KiB, whatever the history holds.
const MaxCheckpoints = 4096

type held[T any] struct {
	index int // the page's position in the history (0 is the first)
	rows  []T
}

// Window is a bounded window over a paged history. Use New.
type Window[T any] struct {
	pageSize, maxPages int

	gen   int
	pages []held[T] // consecutive pages, oldest first
	// starts[k-base] is the cursor of page k, for paging back to it; base
	// is the index of the oldest cursor kept.
	starts []int64
	base   int
	more   bool  // a page follows the last held one
	next   int64 // its cursor
	sel    int   // the selected row, an index into the held rows

	pending, inFlight *Request
	loaded            bool // the first page arrived
}

// New returns an empty window of pages of pageSize rows that holds at most
// maxPages of them (at least 2, so the selection can cross a page edge).
func New[T any](pageSize, maxPages int) *Window[T] {
	w := &Window[T]{pageSize: max(pageSize, 1), maxPages: max(maxPages, 2)}
	w.Reset()
	return w
}

// PageSize is the rows a request should ask for.
func (w *Window[T]) PageSize() int { return w.pageSize }

// MaxRows is the bound on the rows the window ever holds.
func (w *Window[T]) MaxRows() int { return w.pageSize * w.maxPages }

// Reset forgets everything (a new search, or Home) and asks for the first
// page again under a new generation.
func (w *Window[T]) Reset() {
	w.gen++
	w.pages, w.starts, w.base, w.more, w.next, w.sel, w.loaded = nil, []int64{0}, 0, false, 0, 0, false
	w.inFlight = nil
	w.pending = &Request{Gen: w.gen}
}

// Want is the request to send now, if any. Each is returned once; the
// window asks for nothing else until its answer arrives.
func (w *Window[T]) Want() (Request, bool) {
	if w.pending == nil || w.inFlight != nil {
		return Request{}, false
	}
	r := *w.pending
	w.pending, w.inFlight = nil, &r
	return r, true
}

// Loaded says whether the first page has arrived.
func (w *Window[T]) Loaded() bool { return w.loaded }

// Gen is the current generation.
func (w *Window[T]) Gen() int { return w.gen }

// Arrive adds the answer to the request in flight; any other answer (a
// stale generation, a cursor nobody asked for) is dropped and Arrive
// reports false.
func (w *Window[T]) Arrive(p Page[T]) bool {
	r := w.inFlight
	if r == nil || p.Gen != r.Gen || p.Cursor != r.Cursor {
		return false
	}
	w.inFlight, w.loaded = nil, true
	rows := p.Rows
	if len(rows) > w.pageSize { // a source that answered more than asked
		rows = rows[:w.pageSize]
	}
	pg := held[T]{index: r.index, rows: append([]T(nil), rows...)}
	if len(w.pages) > 0 && r.index < w.pages[0].index {
		w.pages = append([]held[T]{pg}, w.pages...)
		w.sel += len(pg.rows)
		if len(w.pages) > w.maxPages {
			last := w.pages[len(w.pages)-1]
			w.pages = w.pages[:len(w.pages)-1]
			w.more, w.next = true, w.start(last.index)
		}
		return true
	}
	w.pages = append(w.pages, pg)
	w.more, w.next = p.More && len(rows) > 0, p.Next
	if w.more {
		w.checkpoint(r.index+1, p.Next)
	}
	if len(w.pages) > w.maxPages {
		w.sel -= len(w.pages[0].rows)
		w.pages = w.pages[1:]
	}
	w.sel = clamp(w.sel, 0, w.Len()-1)
	return true
}

// Failed settles the request in flight whose answer was an error: the
// window holds what it held, and Want returns the same request again
// (the view sends it on the next key, not in a loop).
func (w *Window[T]) Failed() {
	if w.inFlight != nil && w.pending == nil {
		w.pending = w.inFlight
	}
	w.inFlight = nil
}

// checkpoint keeps the cursor of page k for paging back to it later.
func (w *Window[T]) checkpoint(k int, cursor int64) {
	if k-w.base < len(w.starts) {
		return
	}
	w.starts = append(w.starts, cursor)
	if len(w.starts) > MaxCheckpoints {
		drop := len(w.starts) - MaxCheckpoints
		w.starts = append([]int64(nil), w.starts[drop:]...)
		w.base += drop
	}
}

// start is the cursor of page k (only called for kept pages).
func (w *Window[T]) start(k int) int64 { return w.starts[k-w.base] }

// Rows are the held rows, oldest first (at most MaxRows).
func (w *Window[T]) Rows() []T {
	n := 0
	for _, p := range w.pages {
		n += len(p.rows)
	}
	out := make([]T, 0, n)
	for _, p := range w.pages {
		out = append(out, p.rows...)
	}
	return out
}

// Len is the number of held rows.
func (w *Window[T]) Len() int {
	n := 0
	for _, p := range w.pages {
		n += len(p.rows)
	}
	return n
}

// Row returns the held row i.
func (w *Window[T]) Row(i int) (T, bool) {
	for _, p := range w.pages {
		if i < len(p.rows) {
			return p.rows[i], true
		}
		i -= len(p.rows)
	}
	var zero T
	return zero, false
}

// Sel is the selected row's index into the held rows.
func (w *Window[T]) Sel() int { return w.sel }

// Selected is the selected row, if the window holds any.
func (w *Window[T]) Selected() (T, bool) { return w.Row(w.sel) }

// Position is the selected row's position in the whole history, counted
// from its first row (pages before the window are full pages).
func (w *Window[T]) Position() int {
	if len(w.pages) == 0 {
		return 0
	}
	return w.pages[0].index*w.pageSize + w.sel
}

// AtStart says the window holds the history's first page.
func (w *Window[T]) AtStart() bool { return len(w.pages) == 0 || w.pages[0].index == 0 }

// AtEnd says no page follows the window.
func (w *Window[T]) AtEnd() bool { return !w.more }

// Move moves the selection by d rows within the held rows and, when it
// comes within half a page of an edge with more history beyond it, asks
// for the page there.
func (w *Window[T]) Move(d int) {
	w.sel = clamp(w.sel+d, 0, w.Len()-1)
	w.wantNear()
}

func (w *Window[T]) wantNear() {
	if w.inFlight != nil || len(w.pages) == 0 {
		return
	}
	margin := w.pageSize / 2
	last := w.pages[len(w.pages)-1]
	if w.more && w.sel >= w.Len()-1-margin {
		w.pending = &Request{Gen: w.gen, Cursor: w.next, index: last.index + 1}
		return
	}
	first := w.pages[0].index
	if first > 0 && w.sel <= margin {
		if first-1 < w.base { // that cursor was forgotten: start over
			w.Reset()
			return
		}
		w.pending = &Request{Gen: w.gen, Cursor: w.start(first - 1), index: first - 1}
	}
}

func clamp(v, lo, hi int) int {
	if hi < lo {
		return lo
	}
	return min(max(v, lo), hi)
}
