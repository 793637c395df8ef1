package tui

import "sort"

// rowIndex maps the conversation's row space to items without building
// the rows: each item's height comes from its cached layout and offs is
// their prefix sum, recomputed only from the first item that changed.
// A frame then copies just the rows in view, so its cost follows the
// screen, not the history (a full frame used to append every row of
// every item, and the garbage made the tail six times the median).
type rowIndex struct {
	width int
	items []*item // the item each slot was indexed from
	gens  []int   // its gen when indexed
	offs  []int   // offs[i] is item i's first row; offs[len(items)] the total
}

// index brings a.rows up to date with a.items at width: it lays out only
// items that are new or changed (the per-item cache holds the rest).
func (a *App) index(width int) *rowIndex {
	ix := &a.rows
	if ix.width != width {
		*ix = rowIndex{width: width, items: ix.items[:0], gens: ix.gens[:0], offs: ix.offs[:0]}
	}
	from := min(len(ix.items), len(a.items))
	for i := 0; i < from; i++ {
		if it := a.items[i]; ix.items[i] != it || ix.gens[i] != it.gen {
			from = i
			break
		}
	}
	if from == len(a.items) && from == len(ix.items) && len(ix.offs) == from+1 {
		return ix
	}
	ix.items, ix.gens = ix.items[:from], ix.gens[:from]
	if len(ix.offs) > from {
		ix.offs = ix.offs[:from+1]
	} else {
		ix.offs = append(ix.offs[:0], 0)
		from = 0
		ix.items, ix.gens = ix.items[:0], ix.gens[:0]
	}
	for i := from; i < len(a.items); i++ {
		it := a.items[i]
		ix.items = append(ix.items, it)
		ix.gens = append(ix.gens, it.gen)
		ix.offs = append(ix.offs, ix.offs[i]+len(a.lines(it, width)))
	}
	return ix
}

func (ix *rowIndex) total() int { return ix.offs[len(ix.items)] }

// itemAt is the index of the item holding row r (0 <= r < total).
func (ix *rowIndex) itemAt(r int) int {
	return sort.Search(len(ix.items), func(i int) bool { return ix.offs[i+1] > r })
}
