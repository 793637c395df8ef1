package markdown

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"github.com/josecorral/fluzo/lib/tui/text"
	"github.com/josecorral/fluzo/lib/tui/theme"
)

func readInput(t testing.TB, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "input", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func allInputs(t testing.TB) string {
	t.Helper()
	paths, _ := filepath.Glob("testdata/input/*.md")
	var b strings.Builder
	for _, p := range paths {
		b.WriteString(readInput(t, filepath.Base(p)))
		b.WriteString("\n\n")
	}
	return b.String()
}

// Rows fit at every width, including ones too narrow for list and quote
// prefixes, and under RUNEWIDTH_EASTASIAN-style wide ambiguous glyphs.
func TestRowsFitEveryWidth(t *testing.T) {
	src := allInputs(t)
	for _, ascii := range []bool{false, true} {
		for w := 1; w <= 100; w++ {
			r := Render(src, w, Options{ASCII: ascii})
			if len(r.Lines) == 0 {
				t.Fatalf("width %d: no rows", w)
			}
			for i, l := range r.Lines {
				if lw := text.LineWidth(l); lw > w && w >= 4 {
					t.Fatalf("ascii=%v width %d: row %d is %d wide: %q", ascii, w, i, lw, l)
				}
			}
		}
	}
}

func TestInlineStyles(t *testing.T) {
	r := Render("a *i* **b** `c` [d](https://x.example)", 80, Options{})
	want := text.Line{
		{Text: "a "}, {Text: "i", Attr: text.Italic}, {Text: " "}, {Text: "b", Attr: text.Bold},
		{Text: " "}, {Text: "c", Token: theme.Warning}, {Text: " "},
		{Text: "d", Attr: text.Underline}, {Text: " (https://x.example)", Token: theme.Muted},
	}
	if len(r.Lines) != 1 || text.Dump(r.Lines) != text.Dump([]text.Line{want}) {
		t.Errorf("got\n%swant\n%s", text.Dump(r.Lines), text.Dump([]text.Line{want}))
	}
}

func TestNeverAHyperlinkOrEscape(t *testing.T) {
	src := readInput(t, "hostile.md")
	for _, opts := range []Options{{}, {ASCII: true}} {
		r := Render(src, 60, opts)
		all := text.DumpText(r.Lines)
		if strings.ContainsAny(all, "\x1b\x07\r\u202e\u009b") {
			t.Errorf("raw control or bidi reached a row:\n%q", all)
		}
		for _, want := range []string{`\x1b[31m`, `\x1b]8;;https://evil.example`, `\x1b]52;c;`, `safe\x0dEVIL`, `\u202etxt.exe`, `\u202egpj.exe`, `\x7f`} {
			if !strings.Contains(strings.ReplaceAll(all, "\n", ""), want) {
				t.Errorf("expected %q shown escaped in:\n%s", want, all)
			}
		}
	}
}

func TestCodeBlocks(t *testing.T) {
	src := "intro\n\n```go\nfunc f() {}\n```\n\n- item\n\n  ```\n  nested\n  ```\n"
	r := Render(src, 30, Options{})
	if len(r.Blocks) != 2 {
		t.Fatalf("blocks = %+v", r.Blocks)
	}
	b0, b1 := r.Blocks[0], r.Blocks[1]
	if b0.Lang != "go" || b0.Code != "func f() {}" || b1.Lang != "" || b1.Code != "nested" {
		t.Errorf("blocks = %+v", r.Blocks)
	}
	rowText := func(i int) string { return strings.TrimSpace(text.DumpText(r.Lines[i : i+1])) }
	if got := rowText(b0.StartLine); got != "func f() {}" || b0.EndLine != b0.StartLine+1 {
		t.Errorf("block 0 rows %d-%d show %q", b0.StartLine, b0.EndLine, got)
	}
	if got := rowText(b1.StartLine); got != "nested" {
		t.Errorf("block 1 row %d shows %q (the list marker offset must be counted)", b1.StartLine, got)
	}
	for _, sp := range r.Lines[b0.StartLine] {
		if sp.Token != theme.Panel && sp.Token < theme.SynKeyword {
			t.Errorf("code row span %q in %s: code is on the panel", sp.Text, sp.Token)
		}
	}
}

func TestHighlightUsesSynTokens(t *testing.T) {
	r := Render("```go\n// c\nfunc main() { return 1 + \"s\" }\n```", 60, Options{})
	got := map[theme.Token]string{}
	for _, l := range r.Lines {
		for _, sp := range l {
			got[sp.Token] += sp.Text
		}
	}
	for tok, want := range map[theme.Token]string{
		theme.SynComment: "// c", theme.SynKeyword: "funcreturn", theme.SynFunction: "main",
		theme.SynNumber: "1", theme.SynString: `"s"`, theme.SynOperator: "+",
	} {
		if got[tok] != want {
			t.Errorf("%s = %q, want %q", tok, got[tok], want)
		}
	}
}

func TestUnknownOrHostileLanguageIsPlain(t *testing.T) {
	for _, lang := range []string{"nosuchlang", "go\x1b[31m", strings.Repeat("g", 40)} {
		r := Render("```"+lang+"\nfunc main() {}\n```", 40, Options{})
		for _, l := range r.Lines {
			for _, sp := range l {
				if sp.Token != theme.Panel {
					t.Errorf("lang %q: span %q in %s, want plain panel", lang, sp.Text, sp.Token)
				}
			}
		}
	}
}

func TestLongCodeRowsWrapWithMark(t *testing.T) {
	r := Render("```\nabcdefghijklmnop\n```", 10, Options{})
	got := strings.Split(strings.TrimSuffix(text.DumpText(r.Lines), "\n"), "\n")
	want := []string{"  abcdefgh", "↳ ijklmnop"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("got %q, want %q", got, want)
	}
	r = Render("```\nabcdefghijklmnop\n```", 10, Options{ASCII: true})
	if got := text.DumpText(r.Lines[1:2]); got != "> ijklmnop\n" {
		t.Errorf("ascii continuation = %q", got)
	}
}

func TestASCIIGlyphs(t *testing.T) {
	r := Render("- a\n\n> q\n\n---\n", 10, Options{ASCII: true})
	got := text.DumpText(r.Lines)
	if got != "* a\n\n| q\n\n----------\n" {
		t.Errorf("got %q", got)
	}
	for _, l := range r.Lines {
		for _, sp := range l {
			for _, c := range sp.Text {
				if c > 0x7e {
					t.Errorf("non-ASCII %q in ASCII mode", c)
				}
			}
		}
	}
}

// A Renderer fed a growing message gives exactly what a fresh Render
// gives at every step, and reuses the rows of blocks that did not change.
func TestRendererIncremental(t *testing.T) {
	src := allInputs(t)
	var r Renderer
	step := 37
	for n := step; n < len(src)+step; n += step {
		prefix := src[:min(n, len(src))]
		got := r.Render(prefix, 50)
		want := Render(prefix, 50, Options{})
		if dumpResult(got) != dumpResult(want) {
			t.Fatalf("after %d bytes the incremental render differs:\n--- got\n%s\n--- want\n%s", len(prefix), dumpResult(got), dumpResult(want))
		}
	}
}

func TestRendererReusesUnchangedBlocks(t *testing.T) {
	var r Renderer
	first := r.Render("# Title\n\n```go\nfunc a() {}\n```\n\nstreaming", 40)
	second := r.Render("# Title\n\n```go\nfunc a() {}\n```\n\nstreaming more text", 40)
	for _, i := range []int{0, 2} { // the title and the code row; 1 and 3 are blank
		if &first.Lines[i][0] != &second.Lines[i][0] {
			t.Errorf("row %d was laid out again though its block did not change", i)
		}
	}
	if text.DumpText(second.Lines[len(second.Lines)-1:]) != "streaming more text\n" {
		t.Errorf("last block not re-rendered: %q", text.DumpText(second.Lines))
	}
	// A reference definition arriving later changes an earlier paragraph.
	r = Renderer{}
	r.Render("see [x]\n\nmore", 40)
	got := r.Render("see [x]\n\nmore\n\n[x]: https://x.example", 40)
	if !strings.Contains(text.DumpText(got.Lines), "(https://x.example)") {
		t.Errorf("cached paragraph ignored a new reference:\n%s", text.DumpText(got.Lines))
	}
	// A new width lays everything out again.
	if w := r.Render("see [x]\n\nmore\n\n[x]: https://x.example", 12); text.LineWidth(w.Lines[0]) > 12 {
		t.Errorf("width change reused wider rows")
	}
}

func TestEastAsianGlyphWidths(t *testing.T) {
	t.Setenv("RUNEWIDTH_EASTASIAN", "1")
	restore := setAmbiguousWide(true)
	defer restore()
	r := Render("- item text that wraps\n\n> quoted\n\n---\n\n```\nabcdefghijklmnop\n```", 12, Options{})
	for i, l := range r.Lines {
		if w := text.LineWidth(l); w > 12 {
			t.Errorf("row %d is %d wide under wide ambiguous glyphs: %q", i, w, l)
		}
	}
}

func TestCRLFIsALineEnding(t *testing.T) {
	r := Render("para\r\nline\r\n\r\n```\r\ncode\r\n```\r\n\r\nlone\rCR", 40, Options{})
	got := text.DumpText(r.Lines)
	if strings.Contains(got, `\x0d`+"\n") || !strings.Contains(got, "para line") || !strings.Contains(got, "  code") || r.Blocks[0].Code != "code" {
		t.Errorf("CRLF source rendered as:\n%s", got)
	}
	if !strings.Contains(got, `lone\x0dCR`) {
		t.Errorf("a lone CR must stay visible, escaped:\n%s", got)
	}
}

func TestHighlightCacheIsWidthIndependent(t *testing.T) {
	src := "```go\nfunc main() { println(\"a long line of go code that wraps at narrow widths\") }\n```"
	for _, w := range []int{80, 20, 80, 33} {
		fresh := Render(src, w, Options{})
		resetHighlightCache()
		uncached := Render(src, w, Options{})
		if dumpResult(fresh) != dumpResult(uncached) {
			t.Fatalf("width %d: cached and uncached renders differ:\n%s\n%s", w, dumpResult(fresh), dumpResult(uncached))
		}
	}
}

func TestHighlightCacheIsBounded(t *testing.T) {
	block := strings.Repeat("x", highlightCacheBytes/16)
	for i := range 40 {
		Render("```go\n"+block+strconv.Itoa(i)+"\n```", 40, Options{})
	}
	hlCache.Lock()
	defer hlCache.Unlock()
	if hlCache.bytes > highlightCacheBytes || len(hlCache.byKey) != hlCache.order.Len() {
		t.Errorf("cache holds %d bytes in %d entries (%d in order)", hlCache.bytes, len(hlCache.byKey), hlCache.order.Len())
	}
}

// Render is given raw text and escapes exactly once.
func TestRawInputEscapedOnce(t *testing.T) {
	got := text.DumpText(Render("a\x1b[31m b\u202ec", 40, Options{}).Lines)
	if got != `a\x1b[31m b\u202ec`+"\n" {
		t.Errorf("got %q", got)
	}
}

// Cached rows hold their own text, not the message string they were cut
// from: a streamed message must not keep every earlier version alive.
func TestCachedRowsDoNotPinTheMessage(t *testing.T) {
	var r Renderer
	msg := strings.Repeat("word ", 200) + "\n\n" + "tail"
	res := r.Render(msg, 40)
	start := uintptr(unsafe.Pointer(unsafe.StringData(msg)))
	end := start + uintptr(len(msg))
	for i, l := range res.Lines {
		for _, sp := range l {
			if sp.Text == "" {
				continue
			}
			p := uintptr(unsafe.Pointer(unsafe.StringData(sp.Text)))
			if p >= start && p < end {
				t.Fatalf("row %d span %q points into the message string", i, sp.Text)
			}
		}
	}
}
