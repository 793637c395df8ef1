package cards

import (
	"strconv"
	"strings"

	"github.com/josecorral/fluzo/lib/tui/text"
	"github.com/josecorral/fluzo/lib/tui/theme"
)

// viewCard: the path, which lines of how many, then the lines read.
func viewCard(c *card, op Op) error {
	var a viewArgs
	if err := args(op, &a); err != nil {
		return err
	}
	c.subject = safeLine(a.Path)
	var r viewResult
	ok, err := result(op, &r)
	if err != nil || !ok {
		return err
	}
	if r.Path != "" {
		c.subject = safeLine(r.Path)
	}
	if r.Binary {
		c.meta = append(c.meta, "binary file")
		return nil
	}
	last := r.FirstLine + r.LinesShown - 1
	switch {
	case r.LinesShown == 0:
		c.meta = append(c.meta, "no lines")
	case r.Truncated || r.FirstLine > 1:
		c.meta = append(c.meta, "lines "+strconv.Itoa(r.FirstLine)+"-"+strconv.Itoa(last)+" of "+strconv.Itoa(r.TotalLines))
	default:
		c.meta = append(c.meta, plural(r.TotalLines, "line", "lines"))
	}
	c.body = plainRows(safeLines(r.Content), theme.Panel)
	if r.Truncated {
		note := "truncated: lines " + strconv.Itoa(r.FirstLine) + "-" + strconv.Itoa(last) + " of " + strconv.Itoa(r.TotalLines) + " shown"
		if r.NextOffset > 0 {
			note += "; more from offset " + strconv.Itoa(r.NextOffset)
		}
		c.notices = append(c.notices, warningRow(note))
	}
	return nil
}

// listCard (ls, glob): where and what pattern, how many entries, then
// the entries.
func listCard(c *card, op Op) error {
	var a listArgs
	if err := args(op, &a); err != nil {
		return err
	}
	c.subject = listSubject(op.Tool, a)
	var r listResult
	ok, err := result(op, &r)
	if err != nil || !ok {
		return err
	}
	noun, nouns := "entry", "entries"
	if op.Tool == "glob" {
		noun, nouns = "file", "files"
	}
	c.meta = append(c.meta, plural(len(r.Entries), noun, nouns))
	entries := make([]string, len(r.Entries))
	for i, e := range r.Entries {
		entries[i] = safeLine(e)
	}
	c.body = plainRows(entries, theme.Panel)
	if r.Truncated {
		c.notices = append(c.notices, warningRow(truncNote("results truncated", r.Note)))
	} else if r.Note != "" {
		c.notices = append(c.notices, mutedRow(safeLine(r.Note)))
	}
	return nil
}

func listSubject(tool string, a listArgs) string {
	dir := a.Path
	if dir == "" {
		dir = "."
	}
	if tool == "glob" {
		return safeLine(a.Pattern) + " in " + safeLine(dir)
	}
	if a.Depth > 0 {
		return safeLine(dir) + " (depth " + strconv.Itoa(a.Depth) + ")"
	}
	return safeLine(dir)
}

// grepCard: the pattern, where, how many matches in how many files, then
// path:line: text.
func grepCard(c *card, op Op) error {
	var a grepArgs
	if err := args(op, &a); err != nil {
		return err
	}
	c.subject = strconv.Quote(a.Pattern)
	if a.Literal {
		c.subject += " (literal)"
	}
	c.subject = safeLine(c.subject)
	if a.Path != "" {
		c.subject += " in " + safeLine(a.Path)
	}
	if a.Include != "" {
		c.subject += " (" + safeLine(a.Include) + ")"
	}
	var r grepResult
	ok, err := result(op, &r)
	if err != nil || !ok {
		return err
	}
	files := map[string]bool{}
	for _, m := range r.Matches {
		files[m.Path] = true
		loc := safeLine(m.Path) + ":" + strconv.Itoa(m.Line) + ": "
		c.body = append(c.body, text.Line{{Text: loc, Token: theme.Muted}, {Text: safeLine(m.Text), Token: theme.Panel}})
	}
	c.meta = append(c.meta, plural(len(r.Matches), "match", "matches")+" in "+plural(len(files), "file", "files"))
	if r.Skipped > 0 {
		c.meta = append(c.meta, plural(r.Skipped, "file skipped", "files skipped"))
	}
	if r.Truncated {
		c.notices = append(c.notices, warningRow(truncNote("matches truncated", r.Note)))
	} else if r.Note != "" {
		c.notices = append(c.notices, mutedRow(safeLine(r.Note)))
	}
	return nil
}

// editCard: the path and a diff preview — the replaced text in error
// red, its replacement in success green.
func editCard(c *card, op Op) error {
	var a editArgs
	if err := args(op, &a); err != nil {
		return err
	}
	c.subject = safeLine(a.Path)
	if a.ReplaceAll {
		c.meta = append(c.meta, "replace all")
	}
	removed, added := safeLines(a.OldString), safeLines(a.NewString)
	c.meta = append(c.meta, "+"+strconv.Itoa(len(added))+" -"+strconv.Itoa(len(removed)))
	c.body = append(diffRows("-", removed, theme.Error), diffRows("+", added, theme.Success)...)
	var r writeResult
	if ok, err := result(op, &r); err != nil {
		return err
	} else if ok && r.Replacements > 1 {
		c.meta = append(c.meta, plural(r.Replacements, "replacement", "replacements"))
	}
	return nil
}

// writeCard: the path, created or replaced and the size, and the new
// content as added lines.
func writeCard(c *card, op Op) error {
	var a writeArgs
	if err := args(op, &a); err != nil {
		return err
	}
	c.subject = safeLine(a.Path)
	lines := safeLines(a.Content)
	switch a.ExpectVersion {
	case "absent":
		c.meta = append(c.meta, "new file")
	}
	c.meta = append(c.meta, "+"+strconv.Itoa(len(lines)))
	c.body = diffRows("+", lines, theme.Success)
	var r writeResult
	if ok, err := result(op, &r); err != nil {
		return err
	} else if ok {
		c.meta = append(c.meta, strconv.Itoa(r.Bytes)+" bytes")
	}
	return nil
}

func diffRows(sign string, lines []string, tok theme.Token) []text.Line {
	out := make([]text.Line, len(lines))
	for i, l := range lines {
		out[i] = text.Line{{Text: sign + l, Token: tok}}
	}
	return out
}

func truncNote(what, note string) string {
	if note == "" {
		return what
	}
	return what + ": " + safeLine(strings.TrimSpace(note))
}
