// Package identity draws Fluzo's identity and motion: the FLUZO relief
// wordmark (30×3 cells of half blocks), its compact one-line form, the top
// activity bar and the message wave, with the product owner's gradient,
// high-contrast fire treatment and per-state tints reproduced exactly
// (docs/TUI.md "Identity and themes"; TUI-REFERENCE §1–§3.3).
//
// Everything here is a pure function of an injected time: no clocks, no
// goroutines, no allocation on the frame path, so an animation tick
// repaints only these cells and costs next to nothing.
package identity

// The wordmark geometry. The canvas is 30×6 pixels: five 5×5 letters on a
// 6-column pitch (ink in columns 0–28, rows 0–4) plus the relief shadow,
// which adds column 29 and row 5. Two pixel rows make one text row.
const (
	PixelWidth  = 30
	PixelHeight = 6
	Width       = PixelWidth      // cells
	Height      = PixelHeight / 2 // rows
	ASCIIWidth  = 5               // "FLUZO" in the ASCII fallback
	letterPitch = 6
)

// letters are the bitmaps of F, L, U, Z, O, rows top to bottom, the
// leftmost column in the highest bit.
var letters = [5][5]uint8{
	{0b11111, 0b10000, 0b11110, 0b10000, 0b10000}, // F
	{0b10000, 0b10000, 0b10000, 0b10000, 0b11111}, // L
	{0b10001, 0b10001, 0b10001, 0b10001, 0b01110}, // U
	{0b11111, 0b00010, 0b00100, 0b01000, 0b11111}, // Z
	{0b01110, 0b10001, 0b10001, 0b10001, 0b01110}, // O
}

// ink reports whether pixel (col,row) is part of a letter. Every sixth
// column is the blank spacer between letters.
func ink(col, row int) bool {
	if col < 0 || col >= PixelWidth || row < 0 || row >= 5 || col%letterPitch == 5 {
		return false
	}
	bit := 4 - col%letterPitch
	return letters[col/letterPitch][row]>>bit&1 == 1
}

// pixelKind is what a pixel of the canvas holds.
type pixelKind uint8

const (
	empty  pixelKind = iota
	inked            // part of a letter
	shadow           // the relief: a non-ink pixel whose up-left neighbour is ink
)

func kindAt(col, row int) pixelKind {
	switch {
	case ink(col, row):
		return inked
	case ink(col-1, row-1):
		return shadow
	default:
		return empty
	}
}

// PixelMap draws the 30×6 canvas as text ('#' ink, '+' shadow, '.' empty),
// one line per pixel row, for tests and docs.
func PixelMap() string {
	b := make([]byte, 0, (PixelWidth+1)*PixelHeight)
	for row := range PixelHeight {
		for col := range PixelWidth {
			b = append(b, ".#+"[kindAt(col, row)])
		}
		b = append(b, '\n')
	}
	return string(b)
}

// cellShape is one text cell of the wordmark: its glyph and which pixel
// kinds give its foreground and (for two different halves) background.
type cellShape struct {
	glyph  rune
	fg, bg pixelKind // bg is empty unless the cell shows two kinds
}

// The glyphs of the half-block rule.
const (
	upperHalf = '▀'
	lowerHalf = '▄'
	fullBlock = '█'
)

// halfBlock applies the half-block rule to a top and bottom pixel. Pixels
// of one column and one kind always share a colour, so comparing kinds is
// comparing colours.
func halfBlock(top, bottom pixelKind) cellShape {
	switch {
	case top == empty && bottom == empty:
		return cellShape{glyph: ' '}
	case bottom == empty:
		return cellShape{glyph: upperHalf, fg: top}
	case top == empty:
		return cellShape{glyph: lowerHalf, fg: bottom}
	case top == bottom:
		return cellShape{glyph: fullBlock, fg: top}
	default:
		return cellShape{glyph: upperHalf, fg: top, bg: bottom}
	}
}

// reliefShapes and monoShapes are the 30×3 cells, computed once: the
// shape never changes, only colours do.
var reliefShapes, monoShapes = buildShapes()

func buildShapes() (relief, mono [Height][Width]cellShape) {
	for r := range Height {
		for col := range Width {
			top, bottom := kindAt(col, 2*r), kindAt(col, 2*r+1)
			relief[r][col] = halfBlock(top, bottom)
			// Monochrome draws ink only: a shadow without colour is noise.
			mono[r][col] = halfBlock(inkOnly(top), inkOnly(bottom))
		}
	}
	return relief, mono
}

func inkOnly(k pixelKind) pixelKind {
	if k == inked {
		return inked
	}
	return empty
}
