// Package form is the model behind the TUI's settings screens, theme
// picker and developer menu: typed controls (toggles, bounded steppers,
// selectors, validated text) over settings entries as the runtime's
// settings query describes them (key, value, default, source, unit,
// range, options, when a change applies). It holds no schema of its own:
// every range and option comes from the entries, which come from the one
// registry in lib/config through the port. It is pure: no terminal, no
// port, no clock, so every rule (out of range is refused, never clamped;
// a command-line key is locked; an invalid value keeps the prior one) is
// unit-tested here and the glue in lib/tui only draws and routes keys.
package form
