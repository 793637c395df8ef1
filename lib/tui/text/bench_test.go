package text

import (
	"strings"
	"testing"

	"github.com/josecorral/fluzo/lib/tui/theme"
)

// paragraph2K is a ~2 KB Markdown-like paragraph: words, a few styled
// runs (bold, inline code), as the Markdown renderer hands to Wrap.
func paragraph2K() Line {
	var l Line
	words := strings.Fields("The runtime keeps every operation in the journal so a crash " +
		"can be recovered and the person sees exactly what happened before it")
	n := 0
	for i := 0; n < 2048; i++ {
		w := words[i%len(words)] + " "
		sp := Span{Text: w}
		switch i % 17 {
		case 5:
			sp.Attr = Bold
		case 11:
			sp.Token = theme.Warning
		}
		l = append(l, sp)
		n += len(w)
	}
	return l
}

func BenchmarkWrap2KParagraph(b *testing.B) {
	l := paragraph2K()
	b.ReportAllocs()
	for b.Loop() {
		Wrap(l, 80)
	}
}

func BenchmarkWrap2KSingleSpan(b *testing.B) {
	var s strings.Builder
	for _, sp := range paragraph2K() {
		s.WriteString(sp.Text)
	}
	l := Line{{Text: s.String()}}
	b.ReportAllocs()
	for b.Loop() {
		Wrap(l, 80)
	}
}

func BenchmarkWrap2KCJK(b *testing.B) {
	l := Line{{Text: strings.Repeat("日本語のテキストを折り返す。", 48)}}
	b.ReportAllocs()
	for b.Loop() {
		Wrap(l, 80)
	}
}

func BenchmarkWrapShortLine(b *testing.B) {
	l := Line{{Text: "a short line that fits"}}
	b.ReportAllocs()
	for b.Loop() {
		Wrap(l, 80)
	}
}

func BenchmarkWidthASCII(b *testing.B) {
	s := strings.Repeat("x", 80)
	b.ReportAllocs()
	for b.Loop() {
		Width(s)
	}
}
