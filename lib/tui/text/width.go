package text

import (
	"os"
	"strings"
	"unicode/utf8"

	"github.com/rivo/uniseg"
)

// TabWidth is the distance between tab stops. lib/termsafe keeps tabs in
// model, file and tool text, and a terminal cell cannot hold one, so this
// package expands every tab to spaces up to the next multiple of TabWidth,
// counted from the start of the logical line (the start of the string for
// Width and Truncate). Four matches what most editors show for Go and
// Makefiles without wasting a narrow terminal's columns.
const TabWidth = 4

// Replacement is what a cluster that cannot be drawn becomes: a control
// character that slipped past the sanitizer, or a cluster wider than the
// column it has to fit in (the reference rule).
const Replacement = "?"

func init() { applyEastAsianEnv(os.Getenv) }

// applyEastAsianEnv mirrors tcell's rule exactly (tcell/v2 eastasian.go):
// RUNEWIDTH_EASTASIAN=1/true/yes makes East-Asian Ambiguous glyphs
// (…, •, │, ●, ×, ─) two cells wide, anything else one. Both packages set
// the same uniseg variable from the same environment, so the widths used
// for layout here are the widths tcell draws, whichever init runs first.
func applyEastAsianEnv(getenv func(string) string) {
	switch strings.ToLower(getenv("RUNEWIDTH_EASTASIAN")) {
	case "1", "true", "yes":
		uniseg.EastAsianAmbiguousWidth = 2
	default:
		uniseg.EastAsianAmbiguousWidth = 1
	}
}

// AmbiguousWide reports whether East-Asian Ambiguous glyphs are measured as
// two cells (RUNEWIDTH_EASTASIAN is on). Views that draw gutters or glyph
// rules use it to choose ASCII-safe layouts rather than assume one cell.
func AmbiguousWide() bool { return uniseg.EastAsianAmbiguousWidth == 2 }

// Width is the one cell-width function of the TUI: the number of terminal
// cells s occupies when drawn from column 0 through this package. Grapheme
// clusters are measured by rivo/uniseg (the library tcell draws with); a
// tab advances to the next TabWidth stop; a control character or invalid
// UTF-8 counts as the one-cell Replacement it is drawn as.
//
// Under RUNEWIDTH_EASTASIAN=1 (see AmbiguousWide) every East-Asian
// Ambiguous glyph measures two cells — Width("…") is 2, and so are the
// reference's •, │, ●, ×, ─ and the half blocks — exactly as tcell then
// draws them. Wrap and Truncate count them so and a one-cell column
// shows such a glyph as Replacement; views must measure their glyphs with
// Width rather than assume one cell. CJK is two cells and combining marks
// and ZWJ sequences join their cluster in either mode.
func Width(s string) int {
	if isPlainASCII(s) {
		return len(s)
	}
	return advance(0, s)
}

// LineWidth is the width of a logical line drawn from column 0 (tab stops
// run across span boundaries).
func LineWidth(l Line) int {
	col := 0
	for _, sp := range l {
		if isPlainASCII(sp.Text) {
			col += len(sp.Text)
			continue
		}
		col = advance(col, sp.Text)
	}
	return col
}

// advance returns the column reached after drawing s starting at col.
func advance(col int, s string) int {
	state := -1
	for len(s) > 0 {
		var cluster string
		var w int
		cluster, s, w, state = uniseg.FirstGraphemeClusterInString(s, state)
		col += clusterWidth(cluster, w, col)
	}
	return col
}

// clusterWidth corrects uniseg's width for the clusters this package draws
// differently: tabs (to the next stop) and controls (as Replacement).
func clusterWidth(cluster string, w, col int) int {
	if cluster == "\t" {
		return TabWidth - col%TabWidth
	}
	if isControl(cluster) {
		return 1
	}
	return w
}

// isPlainASCII reports whether every byte is printable ASCII, the common
// case measured without grapheme segmentation (one byte, one cell).
func isPlainASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] > 0x7e {
			return false
		}
	}
	return true
}

// isControl reports whether a cluster cannot be drawn as it is: a C0/C1
// control or DEL other than a tab or newline (which the wrapper handles
// itself), or a byte that is not UTF-8. A terminal would act on the first
// and mangle the second, so neither is ever passed through.
func isControl(cluster string) bool {
	if cluster == "\t" || cluster == "\n" {
		return false
	}
	r, _ := utf8.DecodeRuneInString(cluster)
	return r < 0x20 || (r >= 0x7f && r < 0xa0) || !utf8.ValidString(cluster)
}

// hasSpecial reports whether s holds a byte that needs normalizing before
// wrapping: a tab, a control (C0, DEL, or a C1 in its UTF-8 form
// 0xC2 0x80–0x9F) or invalid UTF-8. Newlines are structure, not special.
func hasSpecial(s string) bool {
	high := false
	for i := 0; i < len(s); i++ {
		b := s[i]
		switch {
		case b == '\n':
		case b < 0x20 || b == 0x7f:
			return true
		case b == 0xc2 && i+1 < len(s) && s[i+1] >= 0x80 && s[i+1] < 0xa0:
			return true
		case b >= 0x80:
			high = true
		}
	}
	return high && !utf8.ValidString(s)
}
