package pager

import "testing"

// source answers pages of a history of n rows numbered from 1; a page's
// cursor is the number of the row before it (as replay's "after").
func source(n int) func(Request, int) Page[int] {
	return func(r Request, size int) Page[int] {
		p := Page[int]{Gen: r.Gen, Cursor: r.Cursor}
		for i := r.Cursor + 1; i <= int64(n) && len(p.Rows) < size; i++ {
			p.Rows = append(p.Rows, int(i))
		}
		p.Next = r.Cursor + int64(len(p.Rows))
		p.More = p.Next < int64(n)
		return p
	}
}

// serve answers whatever the window wants, as the port would.
func serve(w *Window[int], src func(Request, int) Page[int]) int {
	sent := 0
	for {
		r, ok := w.Want()
		if !ok {
			return sent
		}
		sent++
		w.Arrive(src(r, w.PageSize()))
	}
}

// Scrolling through a history of any size holds at most MaxRows rows: the
// bound is by construction (counted, not timed or measured).
func TestWindowHoldsABoundedNumberOfRows(t *testing.T) {
	for _, n := range []int{0, 1, 50, 1000, 100_000} {
		w := New[int](50, 3)
		src := source(n)
		serve(w, src)
		peak := w.Len()
		for i := 0; i < n+10; i++ {
			w.Move(1)
			serve(w, src)
			peak = max(peak, w.Len())
			if cap(w.Rows()) > w.MaxRows() {
				t.Fatalf("n=%d: the rows slice grew to %d", n, cap(w.Rows()))
			}
		}
		if peak > w.MaxRows() {
			t.Fatalf("n=%d: held %d rows, bound %d", n, peak, w.MaxRows())
		}
		if n > 0 {
			if got, _ := w.Selected(); got != n || !w.AtEnd() || w.Position() != n-1 {
				t.Fatalf("n=%d: at the end selected row %d (position %d, at end %v)", n, got, w.Position(), w.AtEnd())
			}
		}
		if len(w.starts) > MaxCheckpoints {
			t.Fatalf("n=%d: %d checkpoints kept", n, len(w.starts))
		}
	}
}

// Paging back returns the same rows in order; the window never skips or
// repeats one.
func TestWindowPagesBackInOrder(t *testing.T) {
	w := New[int](10, 2)
	src := source(95)
	serve(w, src)
	for i := 0; i < 94; i++ {
		w.Move(1)
		serve(w, src)
	}
	for want := 95; want >= 1; want-- {
		got, _ := w.Selected()
		if got != want {
			t.Fatalf("paging back: selected %d, want %d", got, want)
		}
		w.Move(-1)
		serve(w, src)
	}
	if !w.AtStart() || w.Len() > w.MaxRows() {
		t.Fatalf("back at the start: at start %v, %d rows", w.AtStart(), w.Len())
	}
}

// An answer to anything but the request in flight (an older search, a
// cursor nobody asked for) is dropped.
func TestWindowDropsStaleAnswers(t *testing.T) {
	w := New[int](10, 2)
	r, _ := w.Want()
	w.Reset() // a new search before the answer came
	if w.Arrive(source(30)(r, 10)) {
		t.Fatal("an answer of an older generation was taken")
	}
	r2, ok := w.Want()
	if !ok || r2.Gen == r.Gen {
		t.Fatalf("the new generation asks again: %+v %v", r2, ok)
	}
	if w.Arrive(Page[int]{Gen: r2.Gen, Cursor: 99}) {
		t.Fatal("an answer for a cursor nobody asked for was taken")
	}
	if _, again := w.Want(); again {
		t.Fatal("a second request went out while one is in flight")
	}
	if !w.Arrive(source(30)(r2, 10)) || w.Len() != 10 || !w.Loaded() {
		t.Fatalf("the awaited answer: %d rows", w.Len())
	}
}

// Past MaxCheckpoints pages the oldest cursors are forgotten; paging back
// beyond them starts over from the first page instead of guessing.
func TestWindowForgetsOldCursorsWithinItsBound(t *testing.T) {
	w := New[int](1, 2)
	src := source(MaxCheckpoints + 20)
	serve(w, src)
	for i := 0; i < MaxCheckpoints+19; i++ {
		w.Move(1)
		serve(w, src)
	}
	if len(w.starts) > MaxCheckpoints {
		t.Fatalf("%d cursors kept", len(w.starts))
	}
	for i := 0; i < MaxCheckpoints+40 && !w.AtStart(); i++ {
		w.Move(-1)
		serve(w, src)
	}
	if got, _ := w.Selected(); !w.AtStart() || got != 1 {
		t.Fatalf("paging back past the kept cursors: selected %d, at start %v", got, w.AtStart())
	}
}

// A failed request is asked again, once, when the view next asks.
func TestWindowAsksAgainAfterAFailure(t *testing.T) {
	w := New[int](10, 2)
	r, _ := w.Want()
	w.Failed()
	again, ok := w.Want()
	if !ok || again != r {
		t.Fatalf("after a failure: %+v %v, want %+v again", again, ok, r)
	}
	if _, twice := w.Want(); twice {
		t.Fatal("the retry went out twice")
	}
	if !w.Arrive(source(5)(again, 10)) || w.Len() != 5 {
		t.Fatalf("the retried answer: %d rows", w.Len())
	}
}
