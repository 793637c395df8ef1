package form

import (
	"math"
	"strconv"
	"strings"
)

// Group is one settings screen: a name and which entries it lists.
type Group struct {
	Name  string
	Match func(Entry) bool
}

func prefixes(ps ...string) func(Entry) bool {
	return func(e Entry) bool {
		for _, p := range ps {
			if strings.HasPrefix(e.Key, p) || e.Key == strings.TrimSuffix(p, ".") {
				return true
			}
		}
		return false
	}
}

// SettingsGroups are the settings screens in tab order (PRD §26.2); the
// last lists every entry.
func SettingsGroups() []Group {
	return []Group{
		{"Models and pools", prefixes("agent.", "models.", "capacity_pools.", "decision.")},
		{"Limits", prefixes("harness.", "context.")},
		{"Storage", prefixes("storage.")},
		{"Telemetry", prefixes("telemetry.")},
		{"Theme", prefixes("tui.theme", "tui.animation_fps", "tui.reduced_motion")},
		{"Notifications", prefixes("tui.notifications.")},
		{"Developer menu", prefixes("tui.dev_menu", "tui.flags.")},
		{"All / advanced", func(Entry) bool { return true }},
	}
}

// DevMenuGroups is the developer menu's one screen: the entries the
// runtime flags as its catalog, and nothing else.
func DevMenuGroups() []Group {
	return []Group{{"Developer menu", func(e Entry) bool { return e.DevMenu }}}
}

// Change is one staged edit: the key and its new value as text.
type Change struct{ Key, Value string }

// Form is a set of screens over entries with staged edits. Staged edits
// are only proposals: Apply sends Changes to the runtime, which validates
// again and answers with new entries (SetEntries).
type Form struct {
	groups  []Group
	entries []Entry
	group   int
	sel     int
	staged  map[string]string
	errs    map[string]string
	editing bool
	buf     []rune
	filter  string
}

// New returns a form over entries with the given screens.
func New(entries []Entry, groups []Group) *Form {
	f := &Form{groups: groups, staged: map[string]string{}, errs: map[string]string{}}
	f.SetEntries(entries)
	return f
}

// SetEntries replaces the entries (a settings answer). Staged edits the
// runtime now reports as the value are dropped; the others stay.
func (f *Form) SetEntries(entries []Entry) {
	f.entries = append([]Entry(nil), entries...)
	for k, v := range f.staged {
		if e, ok := f.entry(k); !ok || e.Value == v {
			delete(f.staged, k)
		}
	}
	f.clampSel()
}

func (f *Form) entry(key string) (Entry, bool) {
	for _, e := range f.entries {
		if e.Key == key {
			return e, true
		}
	}
	return Entry{}, false
}

// Groups names the screens; Group is the current one.
func (f *Form) Groups() []string {
	out := make([]string, len(f.groups))
	for i, g := range f.groups {
		out[i] = g.Name
	}
	return out
}

func (f *Form) Group() int { return f.group }

// NextGroup moves to another screen (delta ±1, wrapping); a text edit in
// progress is abandoned, never committed.
func (f *Form) NextGroup(delta int) {
	if len(f.groups) == 0 {
		return
	}
	f.editing = false
	f.group = (f.group + delta + len(f.groups)) % len(f.groups)
	f.sel = 0
}

// Visible lists the current screen's entries in registry order.
func (f *Form) Visible() []Entry {
	if len(f.groups) == 0 {
		return nil
	}
	var out []Entry
	q := strings.ToLower(f.filter)
	for _, e := range f.entries {
		if f.groups[f.group].Match(e) && strings.Contains(strings.ToLower(e.Key), q) {
			out = append(out, e)
		}
	}
	return out
}

// maxFilter bounds the search text (as the palette's query).
const maxFilter = 64

// Filter is the search text: only keys containing it (any case) are
// listed.
func (f *Form) Filter() string { return f.filter }

// SetFilter replaces the search text; a text edit is abandoned.
func (f *Form) SetFilter(q string) {
	if len(q) > maxFilter {
		return
	}
	for _, r := range q {
		if r < 0x20 || r == 0x7f {
			return
		}
	}
	f.editing, f.filter, f.sel = false, q, 0
}

// Selected is the index of the selected entry in Visible.
func (f *Form) Selected() int { return f.sel }

// Current returns the selected entry.
func (f *Form) Current() (Entry, bool) {
	v := f.Visible()
	if f.sel < 0 || f.sel >= len(v) {
		return Entry{}, false
	}
	return v[f.sel], true
}

// Move selects another entry (no wrap); a text edit is abandoned.
func (f *Form) Move(delta int) {
	f.editing = false
	f.sel += delta
	f.clampSel()
}

func (f *Form) clampSel() {
	n := len(f.Visible())
	f.sel = min(max(f.sel, 0), max(n-1, 0))
}

// Shown is what an entry's value column shows: its staged edit, else
// its value.
func (f *Form) Shown(e Entry) string {
	if v, ok := f.staged[e.Key]; ok {
		return v
	}
	return e.Value
}

// Staged reports whether e has an edit not yet applied.
func (f *Form) Staged(e Entry) bool { _, ok := f.staged[e.Key]; return ok }

// Error is the inline error of key, "" when none.
func (f *Form) Error(key string) string { return f.errs[key] }

// SetError shows a problem the runtime found with key (its diagnostic).
func (f *Form) SetError(key, problem string) { f.errs[key] = problem }

// propose stages text for the selected entry when it is valid; otherwise
// the inline error is set and the prior value stays.
func (f *Form) propose(e Entry, text string) bool {
	if p := Validate(e, text); p != "" {
		f.errs[e.Key] = p
		return false
	}
	delete(f.errs, e.Key)
	if text == e.Value {
		delete(f.staged, e.Key)
	} else {
		f.staged[e.Key] = text
	}
	return true
}

// Step moves a stepper by delta steps, cycles a selector or flips a
// toggle. A step past either bound is refused with an error naming the
// bound: the value is never clamped.
func (f *Form) Step(delta int) bool {
	e, ok := f.Current()
	if !ok {
		return false
	}
	cur := f.Shown(e)
	switch e.Control() {
	case ControlToggle:
		return f.propose(e, strconv.FormatBool(cur != "true"))
	case ControlSelector:
		i := indexOf(e.Options, cur)
		n := len(e.Options)
		return f.propose(e, e.Options[((i+delta)%n+n)%n])
	case ControlStepper:
		v, err := strconv.ParseFloat(cur, 64)
		if err != nil {
			v = *e.Min
		}
		next := v + float64(delta)*step(e)
		text := strconv.FormatInt(int64(math.Round(next)), 10)
		if e.Type == TypeFloat {
			text = strconv.FormatFloat(math.Round(next*1e6)/1e6, 'f', -1, 64)
		}
		return f.propose(e, text)
	}
	return false
}

func indexOf(list []string, s string) int {
	for i, x := range list {
		if x == s {
			return i
		}
	}
	return 0
}

// Editing reports a text edit in progress and its text.
func (f *Form) Editing() (bool, string) { return f.editing, string(f.buf) }

// maxEdit bounds an edited value (a path list or a URL is well under it).
const maxEdit = 1024

// BeginEdit starts editing the selected entry's value as text; a locked
// entry refuses with its error.
func (f *Form) BeginEdit() bool {
	e, ok := f.Current()
	if !ok {
		return false
	}
	if e.Locked {
		f.errs[e.Key] = Validate(e, "")
		return false
	}
	f.editing, f.buf = true, []rune(f.Shown(e))
	return true
}

// Type appends text to the edit (control characters are dropped).
func (f *Form) Type(s string) {
	if !f.editing {
		return
	}
	for _, r := range s {
		if r >= 0x20 && r != 0x7f && len(f.buf) < maxEdit {
			f.buf = append(f.buf, r)
		}
	}
}

// Backspace deletes the last character of the edit.
func (f *Form) Backspace() {
	if f.editing && len(f.buf) > 0 {
		f.buf = f.buf[:len(f.buf)-1]
	}
}

// Commit stages the edited text when valid and ends the edit; an invalid
// text keeps the edit open with the error, and the prior value stays.
func (f *Form) Commit() bool {
	e, ok := f.Current()
	if !f.editing || !ok {
		return false
	}
	if !f.propose(e, strings.TrimSpace(string(f.buf))) {
		return false
	}
	f.editing = false
	return true
}

// CancelEdit abandons the text edit.
func (f *Form) CancelEdit() { f.editing = false }

// Reset stages the selected entry's default.
func (f *Form) Reset() bool {
	e, ok := f.Current()
	if !ok {
		return false
	}
	return f.propose(e, e.Default)
}

// Changes lists the staged edits in entry order.
func (f *Form) Changes() []Change {
	var out []Change
	for _, e := range f.entries {
		if v, ok := f.staged[e.Key]; ok {
			out = append(out, Change{e.Key, v})
		}
	}
	return out
}

// Dirty reports staged edits.
func (f *Form) Dirty() bool { return len(f.staged) > 0 }

// Discard drops every staged edit and error (Cancel).
func (f *Form) Discard() {
	f.staged, f.errs, f.editing = map[string]string{}, map[string]string{}, false
}

// Unsaved reports entries applied to the session and not yet saved.
func (f *Form) Unsaved() bool {
	for _, e := range f.entries {
		if e.Edited {
			return true
		}
	}
	return false
}
