package config

import (
	"strings"

	"github.com/josecorral/fluzo/lib/core"
)

// setInText returns text with key set to valueText, changing only the
// lines of that key: every other key, comment and the layout survive.
// A key not present is inserted at the end of its table (created at the
// end of the file if needed).
func setInText(text, key, valueText string) (string, error) {
	lines := strings.Split(text, "\n")
	locs := locate(text)
	for _, l := range locs {
		if l.Key == key && !l.Header {
			return strings.Join(replaceValue(lines, l, valueText), "\n"), nil
		}
	}
	for _, l := range locs {
		if !l.Header && strings.HasPrefix(key, l.Key+".") {
			return "", core.Errorf(core.CodeInvalidConfiguration, "%s is defined inside the inline table %s", key, l.Key).
				WithHint("edit that line by hand, or rewrite the inline table as a [table]")
		}
	}
	table := parentTable(key)
	header, last := -1, -1
	for i, l := range locs {
		if l.Header && l.Key == table {
			header = i
			last = l.End
			for _, k := range locs[i+1:] {
				if k.Header {
					break
				}
				last = k.End
			}
			break
		}
	}
	line := tomlKeyPath(strings.TrimPrefix(key, table+".")) + " = " + valueText
	switch {
	case table == "":
		return insertTopLevel(lines, locs, key+" = "+valueText), nil
	case header >= 0:
		return strings.Join(insertAt(lines, last+1, line), "\n"), nil
	}
	// The table may exist only through dotted keys ("notifications.x = 1"
	// under [tui]); a new [table] header would redefine it, so the key is
	// added beside its siblings, dotted the same way.
	if at, enclosing, ok := dottedSibling(locs, table); ok {
		rel := strings.TrimPrefix(key, enclosing+".")
		if enclosing == "" {
			rel = key
		}
		return strings.Join(insertAt(lines, at, tomlKeyPath(rel)+" = "+valueText), "\n"), nil
	}
	if !strings.HasSuffix(text, "\n") && text != "" {
		text += "\n"
	}
	return text + "\n[" + tomlKeyPath(table) + "]\n" + line + "\n", nil
}

// parentTable is the table a key is written under: the key minus its
// last segment, so "tui.notifications.max_visible" goes to
// [tui.notifications] and "models.coder.model" to [models.coder].
func parentTable(key string) string {
	if i := strings.LastIndexByte(key, '.'); i >= 0 {
		return key[:i]
	}
	return ""
}

func tomlKeyPath(path string) string {
	segs := strings.Split(path, ".")
	for i, s := range segs {
		segs[i] = tomlKey(s)
	}
	return strings.Join(segs, ".")
}

// replaceValue rewrites the value of the key at l, keeping the key text,
// its indentation and a trailing comment on a single-line value.
func replaceValue(lines []string, l located, valueText string) []string {
	first := lines[l.Start]
	eq := equalsIndex(first)
	prefix := strings.TrimRight(first[:eq], " \t") + " = "
	comment := ""
	if l.Start == l.End {
		comment = trailingComment(first[eq+1:])
	}
	newLine := prefix + valueText
	if comment != "" {
		newLine += " " + comment
	}
	out := append([]string{}, lines[:l.Start]...)
	out = append(out, newLine)
	return append(out, lines[l.End+1:]...)
}

// equalsIndex finds the '=' separating key and value (outside quoted
// key segments).
func equalsIndex(line string) int {
	_, rest, ok := parseKeyPath(line)
	if !ok {
		return strings.IndexByte(line, '=')
	}
	return len(line) - len(rest)
}

// trailingComment returns the "# ..." after a single-line value.
func trailingComment(value string) string {
	for i := 0; i < len(value); i++ {
		switch value[i] {
		case '"':
			if end := closingQuote(value[i:], '"'); end > 0 {
				i += end
			}
		case '\'':
			if end := strings.IndexByte(value[i+1:], '\''); end >= 0 {
				i += end + 1
			}
		case '#':
			return strings.TrimSpace(value[i:])
		}
	}
	return ""
}

func insertAt(lines []string, at int, line string) []string {
	out := append([]string{}, lines[:at]...)
	out = append(out, line)
	return append(out, lines[at:]...)
}

// insertTopLevel puts a top-level key after the last top-level key, or
// before the first table header.
func insertTopLevel(lines []string, locs []located, line string) string {
	at := 0
	for _, l := range locs {
		if l.Header {
			at = l.Start
			break
		}
		at = l.End + 1
	}
	if len(locs) > 0 && locs[0].Header {
		at = locs[0].Start
		return strings.Join(insertAt(lines, at, line+"\n"), "\n")
	}
	return strings.Join(insertAt(lines, at, line), "\n")
}

// dottedSibling finds the last key under table written with dotted keys
// and returns the line after it and the table header it sits in.
func dottedSibling(locs []located, table string) (int, string, bool) {
	at, enclosing, found := 0, "", false
	current := ""
	for _, l := range locs {
		if l.Header {
			current = l.Key
			continue
		}
		if strings.HasPrefix(l.Key, table+".") && (current == "" || strings.HasPrefix(table, current+".")) {
			at, enclosing, found = l.End+1, current, true
		}
	}
	return at, enclosing, found
}
