package config

// Preview returns the configuration the draft's edits would give, without
// writing anything: the edits are applied to the text the base was loaded
// from and the result is validated whole. The returned Config keeps the
// base's file identity, so a later save of it still detects a change made
// on disk since the base was loaded, and the base's CLI overrides stay
// authoritative (copied over and re-validated). It is how a settings
// screen applies a change to this session only.
func (d *Draft) Preview() (*Config, error) {
	text := string(d.base.text)
	var err error
	for _, k := range d.keys {
		if text, err = setInText(text, k, FormatValue(d.edits[k])); err != nil {
			return nil, err
		}
	}
	cfg, err := Parse([]byte(text), d.base.Path)
	if err != nil {
		return nil, err
	}
	cfg.loaded = d.base.loaded
	if err := cfg.CarryOverrides(d.base); err != nil {
		return nil, err
	}
	return cfg, nil
}

// Keys lists the keys the draft edits, in the order they were first set.
func (d *Draft) Keys() []string { return append([]string(nil), d.keys...) }
