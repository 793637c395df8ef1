package markdown

import (
	"container/list"
	"sync"

	"github.com/josecorral/fluzo/lib/tui/text"
)

// Highlighting does not depend on the width, and it is most of the cost
// of laying out a message with code (chroma's lexers are regular
// expressions). A resize lays every visible message out again; the rows
// of recently highlighted blocks are kept so that costs wrapping only.
// Bounded by bytes of code, least recently used first out.
const highlightCacheBytes = 4 << 20

type highlightEntry struct {
	key  string
	rows []text.Line
}

var hlCache = struct {
	sync.Mutex
	byKey map[string]*list.Element
	order *list.List // front: most recently used
	bytes int
}{byKey: map[string]*list.Element{}, order: list.New()}

// highlightCached is highlight with the cache in front. The rows it
// returns are shared: callers wrap them and never change them.
func highlightCached(lang, code string) []text.Line {
	if len(code) > highlightCacheBytes/8 {
		return highlight(lang, code)
	}
	key := lang + "\x00" + code
	hlCache.Lock()
	if e, ok := hlCache.byKey[key]; ok {
		hlCache.order.MoveToFront(e)
		rows := e.Value.(*highlightEntry).rows
		hlCache.Unlock()
		return rows
	}
	hlCache.Unlock()

	rows := highlight(lang, code)

	hlCache.Lock()
	defer hlCache.Unlock()
	if _, ok := hlCache.byKey[key]; !ok {
		hlCache.byKey[key] = hlCache.order.PushFront(&highlightEntry{key: key, rows: rows})
		hlCache.bytes += len(key)
		for hlCache.bytes > highlightCacheBytes {
			last := hlCache.order.Back()
			old := last.Value.(*highlightEntry)
			hlCache.order.Remove(last)
			delete(hlCache.byKey, old.key)
			hlCache.bytes -= len(old.key)
		}
	}
	return rows
}
