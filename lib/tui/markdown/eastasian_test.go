package markdown

import "github.com/rivo/uniseg"

// setAmbiguousWide switches East-Asian Ambiguous glyphs to two cells, as
// RUNEWIDTH_EASTASIAN=1 does when tcell and lib/tui/text load.
func setAmbiguousWide(on bool) (restore func()) {
	old := uniseg.EastAsianAmbiguousWidth
	uniseg.EastAsianAmbiguousWidth = 1
	if on {
		uniseg.EastAsianAmbiguousWidth = 2
	}
	return func() { uniseg.EastAsianAmbiguousWidth = old }
}
