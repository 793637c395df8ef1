package text

import (
	"sort"
	"strings"

	"github.com/rivo/uniseg"
)

// Wrap soft-wraps a logical line to width cells and returns the visual
// lines. Breaks fall where Unicode line breaking (UAX #14, via uniseg)
// allows — after spaces, between CJK ideographs — and a word longer than
// the width is hard-broken between grapheme clusters, so a wide cluster is
// never split. Span styles carry across breaks; spaces at a soft break are
// dropped; a newline inside a span forces a break. Tabs are expanded and
// controls and too-wide clusters drawn as Replacement (see normalize), so
// every returned line fits in width cells and can be drawn as is.
//
// The returned spans share their text with l (no copy) unless a tab or
// control had to be rewritten. A width below 1 is treated as 1.
func Wrap(l Line, width int) []Line {
	if width < 1 {
		width = 1
	}
	l = normalize(l, width)
	if fitsOnOneLine(l, width) {
		return []Line{l}
	}
	w := wrapper{width: width}
	w.run(l)
	return w.out
}

// fitsOnOneLine reports whether l needs no break, stopping at the first
// cell past width so long paragraphs are not measured twice.
func fitsOnOneLine(l Line, width int) bool {
	col := 0
	for _, sp := range l {
		if strings.IndexByte(sp.Text, '\n') >= 0 {
			return false
		}
		if isPlainASCII(sp.Text) {
			col += len(sp.Text)
		} else {
			col = advance(col, sp.Text)
		}
		if col > width {
			return false
		}
	}
	return true
}

// wrapper holds one Wrap's state. The logical line is segmented as one
// string so break opportunities across span boundaries are right ("**a**b"
// has none between a and b); visual lines are byte ranges of it, mapped
// back onto the spans when emitted.
type wrapper struct {
	width  int
	spans  Line
	text   string
	starts []int // byte offset of each span in text
	pool   []Span
	out    []Line

	lineStart int // byte offset in text where the current visual line starts
	lineW     int // cells on the current line, hanging spaces included
	brokenW   int // cells of the word being placed already emitted by hardBreak
	next      int // first span that can still overlap a line to emit
}

func (w *wrapper) run(l Line) {
	w.join(l)
	// One backing array for every emitted line's spans; a line is a
	// capacity-capped window of it, so appends never alias.
	w.pool = make([]Span, 0, len(l)+len(w.text)/w.width+2)
	w.out = make([]Line, 0, len(w.text)/w.width+2)

	w.lineStart, w.lineW = 0, 0
	for pos := 0; pos <= len(w.text); {
		end := strings.IndexByte(w.text[pos:], '\n')
		if end < 0 {
			w.segment(pos, len(w.text))
			break
		}
		end += pos
		w.segment(pos, end)
		w.emit(w.lineStart, end, w.lineW > w.width)
		w.lineStart, w.lineW = end+1, 0
		pos = end + 1
	}
	w.emit(w.lineStart, len(w.text), w.lineW > w.width)
}

// segment places text[a:b] (no newline) segment by segment.
func (w *wrapper) segment(a, b int) {
	piece := w.text[a:b]
	if !forceUniseg && isPlainASCII(piece) {
		w.segmentASCII(a, piece)
		return
	}
	w.segmentUnicode(a, piece)
}

// segmentUnicode places piece (at offset pos) between the break
// opportunities of Unicode line breaking.
func (w *wrapper) segmentUnicode(pos int, piece string) {
	state := -1
	for rest := piece; len(rest) > 0; {
		var seg string
		seg, rest, _, state = uniseg.FirstLineSegmentInString(rest, state)
		w.place(pos, seg)
		pos += len(seg)
	}
}

// forceUniseg turns the ASCII fast path off, for the test that proves it
// breaks exactly where the Unicode algorithm does.
var forceUniseg = false

// segmentASCII is segmentUnicode for printable ASCII, the bulk of prose,
// at a fraction of the cost. It finds the break after a run of spaces
// itself and gives words to place whole; only a word that does not fit on
// the current line (where a break inside it, after "-" or "/", could
// matter) goes through the Unicode algorithm. The test
// TestASCIIFastPathMatchesUnicode holds the two to the same breaks.
func (w *wrapper) segmentASCII(pos int, piece string) {
	start := 0
	for i := 0; i < len(piece); {
		if piece[i] != ' ' {
			i++
			continue
		}
		j := i
		for j < len(piece) && piece[j] == ' ' {
			j++
		}
		if j < len(piece) && spaceBreaks(piece[:i], piece[j:]) {
			w.placeWord(pos+start, piece[start:j])
			start = j
		}
		i = j
	}
	if start < len(piece) {
		w.placeWord(pos+start, piece[start:])
	}
}

// spaceBreaks reports whether UAX #14 allows a break after a run of spaces
// that follows before and precedes next: not before closing punctuation,
// "!", "?", "/" or an infix separator (LB13), not after an opening
// bracket (LB14) or after a quote when an opening bracket follows (LB15),
// not before a minus sign of a number (LB25), not at the start of the
// text (LB2).
func spaceBreaks(before, after string) bool {
	if before == "" {
		return false
	}
	next := after[0]
	if strings.IndexByte(")]}!?,.:;/", next) >= 0 {
		return false
	}
	if next == '-' && len(after) > 1 && after[1] >= '0' && after[1] <= '9' {
		return false
	}
	switch before[len(before)-1] {
	case '(', '[', '{':
		return false
	case '"', '\'':
		return strings.IndexByte("([{", next) < 0
	}
	return true
}

// placeWord places an ASCII segment whole when it fits the line, and
// otherwise by its Unicode break opportunities.
func (w *wrapper) placeWord(pos int, seg string) {
	word := strings.TrimRight(seg, " ")
	if w.lineW+len(word) <= w.width || strings.IndexFunc(word, breaksInsideWord) < 0 {
		w.place(pos, seg)
		return
	}
	w.segmentUnicode(pos, seg)
}

// breaksInsideWord: the ASCII characters after or before which UAX #14
// may break inside a run without spaces.
func breaksInsideWord(r rune) bool {
	return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
}

// place adds the segment text[pos:pos+len(seg)] — a word with its
// trailing spaces, between two break opportunities — to the current line,
// starting a new line first when it does not fit. Trailing spaces may hang
// past the edge; they are dropped when the line is emitted.
func (w *wrapper) place(pos int, seg string) {
	word := strings.TrimRight(seg, " ")
	ww := w.rangeWidth(pos, pos+len(word))
	if w.lineW+ww > w.width && pos > w.lineStart {
		w.emit(w.lineStart, pos, true)
		w.lineStart, w.lineW = pos, 0
	}
	if ww > w.width {
		w.hardBreak(pos, pos+len(word))
	}
	w.lineW += len(seg) - len(word) + ww - w.brokenW
	w.brokenW = 0
}

// hardBreak splits text[a:b], a word wider than the line, between grapheme
// clusters, emitting every full line and leaving the remainder as the
// current line (brokenW is the width already emitted, which place
// subtracts).
func (w *wrapper) hardBreak(a, b int) {
	col, emitted := 0, 0
	for i := w.spanAt(a); i < len(w.spans) && w.starts[i] < b; i++ {
		lo, hi := max(a, w.starts[i]), min(b, w.starts[i]+len(w.spans[i].Text))
		state := -1
		for at := lo; at < hi; {
			var cluster string
			var cw int
			cluster, _, cw, state = uniseg.FirstGraphemeClusterInString(w.text[at:hi], state)
			if col+cw > w.width && at > w.lineStart {
				w.emit(w.lineStart, at, false)
				w.lineStart = at
				emitted += col
				col = 0
			}
			col += cw
			at += len(cluster)
		}
	}
	w.brokenW = emitted
}

// rangeWidth is the width of text[a:b] as it is drawn: span by span, so a
// cluster never joins across a span boundary (bytes that would combine
// with the next span's are measured, and drawn, on their own).
func (w *wrapper) rangeWidth(a, b int) int {
	n := 0
	for i := w.spanAt(a); i < len(w.spans) && w.starts[i] < b; i++ {
		lo, hi := max(a, w.starts[i]), min(b, w.starts[i]+len(w.spans[i].Text))
		if lo < hi {
			n += Width(w.text[lo:hi])
		}
	}
	return n
}

// spanAt is the index of the span holding byte offset a.
func (w *wrapper) spanAt(a int) int {
	return sort.Search(len(w.spans), func(i int) bool { return w.starts[i]+len(w.spans[i].Text) > a })
}

// join concatenates the spans' text (no copy for a single span).
func (w *wrapper) join(l Line) {
	w.spans = l
	w.starts = make([]int, len(l))
	if len(l) == 1 {
		w.text = l[0].Text
		return
	}
	n := 0
	for i, sp := range l {
		w.starts[i] = n
		n += len(sp.Text)
	}
	var b strings.Builder
	b.Grow(n)
	for _, sp := range l {
		b.WriteString(sp.Text)
	}
	w.text = b.String()
}

// emit appends the visual line text[a:b], without trailing spaces when the
// line ends at a break (they would only push the edge).
func (w *wrapper) emit(a, b int, trim bool) {
	if trim {
		for b > a && w.text[b-1] == ' ' {
			b--
		}
	}
	first := len(w.pool)
	// Lines are emitted in order, so spans wholly before a are never
	// needed again: resume from the first that may overlap.
	for w.next < len(w.spans) && w.starts[w.next]+len(w.spans[w.next].Text) <= a {
		w.next++
	}
	for i := w.next; i < len(w.spans) && w.starts[i] < b; i++ {
		sp := w.spans[i]
		s, e := w.starts[i], w.starts[i]+len(sp.Text)
		lo, hi := max(a, s), min(b, e)
		if lo >= hi {
			continue
		}
		sp.Text = sp.Text[lo-s : hi-s]
		w.pool = append(w.pool, sp)
	}
	w.out = append(w.out, w.pool[first:len(w.pool):len(w.pool)])
}
