package markdown

import (
	"container/list"
	"strings"
	"testing"
)

// message4K is a ~4 KB assistant message of the usual shape: prose,
// a list, inline code, and a Go code block.
func message4K() string {
	var b strings.Builder
	b.WriteString("## Fixing the failing test\n\n")
	for b.Len() < 1500 {
		b.WriteString("The `add` function subtracts instead of adding, so **every** caller gets the wrong sum; the test in `tests/it.rs` catches it. ")
	}
	b.WriteString("\n\n- read `src/lib.rs`\n- change the operator\n  - run `cargo test`\n- check the diff\n\n```go\n")
	for b.Len() < 3200 {
		b.WriteString("func add(a, b int) int {\n\treturn a + b // the fix\n}\n\n")
	}
	b.WriteString("```\n\n")
	for b.Len() < 4096 {
		b.WriteString("After the change the suite passes and the diff is one line. ")
	}
	return b.String()
}

// BenchmarkRender4KCold renders a message never seen before (nothing
// cached: parse, highlight, wrap).
func BenchmarkRender4KCold(b *testing.B) {
	src := message4K()
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		resetHighlightCache()
		Render(src, 100, Options{})
	}
}

// BenchmarkRender4KStreaming is the streaming case: the message grows by
// a delta at the end and is rendered again with the same Renderer.
func BenchmarkRender4KStreaming(b *testing.B) {
	src := message4K()
	var r Renderer
	r.Render(src, 100)
	deltas := []string{" more", " words", " arrive", "."}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		src += deltas[i%len(deltas)]
		i++
		r.Render(src, 100)
	}
}

// BenchmarkRender4KResize is a finished message laid out again at a new
// width (a resize): highlighting comes from the cache, wrapping is redone.
func BenchmarkRender4KResize(b *testing.B) {
	src := message4K()
	Render(src, 100, Options{})
	b.ReportAllocs()
	w := 80
	for b.Loop() {
		w = 160 - w
		Render(src, w, Options{})
	}
}

func resetHighlightCache() {
	hlCache.Lock()
	hlCache.byKey, hlCache.bytes = map[string]*list.Element{}, 0
	hlCache.order.Init()
	hlCache.Unlock()
}
