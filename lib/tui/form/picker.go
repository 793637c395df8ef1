package form

// Picker chooses one option with a live preview: moving previews,
// Cancel returns the option that was in effect when it opened.
type Picker struct {
	options []string
	prior   int
	sel     int
}

// NewPicker opens on current (the first option when it is not listed).
func NewPicker(options []string, current string) *Picker {
	i := indexOf(options, current)
	return &Picker{options: append([]string(nil), options...), prior: i, sel: i}
}

// Options lists the choices; Selected is the previewed one's index.
func (p *Picker) Options() []string { return p.options }
func (p *Picker) Selected() int     { return p.sel }

// Move previews the next or previous option (wrapping).
func (p *Picker) Move(delta int) string {
	if n := len(p.options); n > 0 {
		p.sel = ((p.sel+delta)%n + n) % n
	}
	return p.Preview()
}

// Preview is the option to draw with now.
func (p *Picker) Preview() string {
	if len(p.options) == 0 {
		return ""
	}
	return p.options[p.sel]
}

// Prior is the option in effect when the picker opened (what Esc restores).
func (p *Picker) Prior() string {
	if len(p.options) == 0 {
		return ""
	}
	return p.options[p.prior]
}

// Changed reports a preview other than the prior option.
func (p *Picker) Changed() bool { return p.sel != p.prior }
