package tui

import (
	"strings"

	"github.com/rivo/uniseg"
)

// Bounds from the reference: a draft holds at most 8192 bytes and the
// history keeps the last 32 submitted drafts.
const (
	draftMax   = 8192
	historyMax = 32
)

// composer is the multiline draft editor. The cursor is a byte offset
// that always sits on a grapheme boundary.
type composer struct {
	text    string
	cursor  int
	history []string
	histAt  int // len(history): editing the live draft
	saved   string
	// editing is the queued intervention being edited, "" otherwise.
	editing string
}

func (c *composer) empty() bool { return strings.TrimSpace(c.text) == "" }

// insert adds s at the cursor; it reports false when the cap cut it.
func (c *composer) insert(s string) bool {
	room := draftMax - len(c.text)
	cut := false
	if len(s) > room {
		s, cut = s[:graphemePrefix(s, room)], true
	}
	c.text = c.text[:c.cursor] + s + c.text[c.cursor:]
	c.cursor += len(s)
	return !cut
}

// graphemePrefix is the longest prefix of s within n bytes that ends on
// a grapheme boundary.
func graphemePrefix(s string, n int) int {
	g := uniseg.NewGraphemes(s)
	end := 0
	for g.Next() {
		_, to := g.Positions()
		if to > n {
			break
		}
		end = to
	}
	return end
}

func (c *composer) backspace() {
	if c.cursor == 0 {
		return
	}
	prev := c.prevBoundary(c.cursor)
	c.text = c.text[:prev] + c.text[c.cursor:]
	c.cursor = prev
}

func (c *composer) deleteForward() {
	if c.cursor >= len(c.text) {
		return
	}
	next := c.nextBoundary(c.cursor)
	c.text = c.text[:c.cursor] + c.text[next:]
}

func (c *composer) left() {
	if c.cursor > 0 {
		c.cursor = c.prevBoundary(c.cursor)
	}
}

func (c *composer) right() {
	if c.cursor < len(c.text) {
		c.cursor = c.nextBoundary(c.cursor)
	}
}

func (c *composer) lineStart() { c.cursor = strings.LastIndexByte(c.text[:c.cursor], '\n') + 1 }

func (c *composer) lineEnd() {
	if i := strings.IndexByte(c.text[c.cursor:], '\n'); i >= 0 {
		c.cursor += i
	} else {
		c.cursor = len(c.text)
	}
}

func (c *composer) killBefore() {
	start := strings.LastIndexByte(c.text[:c.cursor], '\n') + 1
	c.text = c.text[:start] + c.text[c.cursor:]
	c.cursor = start
}

func (c *composer) killAfter() {
	end := len(c.text)
	if i := strings.IndexByte(c.text[c.cursor:], '\n'); i >= 0 {
		end = c.cursor + i
	}
	c.text = c.text[:c.cursor] + c.text[end:]
}

func (c *composer) nextBoundary(at int) int {
	g := uniseg.NewGraphemes(c.text[at:])
	if g.Next() {
		_, to := g.Positions()
		return at + to
	}
	return len(c.text)
}

func (c *composer) prevBoundary(at int) int {
	prev := 0
	g := uniseg.NewGraphemes(c.text[:at])
	for g.Next() {
		from, _ := g.Positions()
		prev = from
	}
	return prev
}

// multiline says whether Up/Down move the cursor instead of history.
func (c *composer) multiline() bool { return strings.Contains(c.text, "\n") }

// take returns the draft for submission, records it in history and clears.
func (c *composer) take() string {
	s := c.text
	if len(c.history) == 0 || c.history[len(c.history)-1] != s {
		c.history = append(c.history, s)
		if len(c.history) > historyMax {
			c.history = c.history[len(c.history)-historyMax:]
		}
	}
	c.text, c.cursor, c.histAt, c.editing = "", 0, len(c.history), ""
	return s
}

func (c *composer) historyPrev() {
	if c.histAt == 0 || len(c.history) == 0 {
		return
	}
	if c.histAt >= len(c.history) {
		c.histAt, c.saved = len(c.history), c.text
	}
	c.histAt--
	c.text = c.history[c.histAt]
	c.cursor = len(c.text)
}

func (c *composer) historyNext() {
	if c.histAt >= len(c.history) {
		return
	}
	c.histAt++
	if c.histAt == len(c.history) {
		c.text = c.saved
	} else {
		c.text = c.history[c.histAt]
	}
	c.cursor = len(c.text)
}

// visual soft-wraps the draft by grapheme at width and returns the rows
// and the cursor's row and column in them.
func (c *composer) visual(width int) (rows []string, curRow, curCol int) {
	if width < 1 {
		width = 1
	}
	rows = []string{""}
	col := 0
	place := func(at int) {
		if at == c.cursor {
			curRow, curCol = len(rows)-1, col
		}
	}
	g := uniseg.NewGraphemes(c.text)
	for g.Next() {
		from, _ := g.Positions()
		place(from)
		cl := g.Str()
		if cl == "\n" || cl == "\r\n" {
			rows = append(rows, "")
			col = 0
			continue
		}
		w := g.Width()
		if col+w > width {
			rows = append(rows, "")
			col = 0
			if from == c.cursor {
				curRow, curCol = len(rows)-1, 0
			}
		}
		rows[len(rows)-1] += cl
		col += w
	}
	place(len(c.text))
	if curCol >= width { // cursor after a full row sits at the next row
		rows = append(rows, "")
		curRow, curCol = len(rows)-1, 0
	}
	return rows, curRow, curCol
}
