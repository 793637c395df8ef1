package clidoc

import (
	"fmt"
	"strings"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/urfave/cli/v3"
)

// Section is an extra man page section written by the binary (FILES,
// ENVIRONMENT, EXAMPLES, a settings reference…). Body is plain text;
// blank lines separate paragraphs, lines starting with two spaces are
// shown verbatim.
type Section struct {
	Title string
	Body  string
}

// Page is everything a man page is generated from.
type Page struct {
	Cmd      *cli.Command
	Version  string
	Sections []Section
	SeeAlso  []string
}

// Man renders p as a section-1 roff man page. The output depends only on
// the tree and the sections (no dates), so a regenerated page is stale
// only when something a user can see has changed.
func Man(p Page) string {
	var b strings.Builder
	c := p.Cmd
	name := c.Name
	fmt.Fprintf(&b, ".\\\" Generated from the command definitions by scripts/gen-docs; do not edit.\n")
	fmt.Fprintf(&b, ".TH %s 1 \"\" \"Fluzo %s\" \"Fluzo Manual\"\n", strings.ToUpper(name), p.Version)
	b.WriteString(".SH NAME\n")
	fmt.Fprintf(&b, "%s \\- %s\n", esc(name), esc(c.Usage))
	b.WriteString(".SH SYNOPSIS\n")
	synopsis(&b, c)
	if c.Description != "" {
		b.WriteString(".SH DESCRIPTION\n")
		para(&b, c.Description)
	}
	if fs := flags(c); len(fs) > 0 {
		b.WriteString(".SH OPTIONS\n")
		flagList(&b, fs)
	}
	if len(c.Commands) > 0 {
		b.WriteString(".SH COMMANDS\n")
		for _, n := range walk(c)[1:] {
			commandEntry(&b, name, n)
		}
	}
	for _, s := range p.Sections {
		fmt.Fprintf(&b, ".SH %s\n", strings.ToUpper(esc(s.Title)))
		para(&b, s.Body)
	}
	b.WriteString(".SH EXIT STATUS\n")
	for _, r := range core.ExitTable {
		fmt.Fprintf(&b, ".TP\n.B %d\n%s: %s\n", r.Code, esc(r.Status), esc(r.Meaning))
	}
	if len(p.SeeAlso) > 0 {
		b.WriteString(".SH SEE ALSO\n")
		refs := make([]string, len(p.SeeAlso))
		for i, s := range p.SeeAlso {
			refs[i] = fmt.Sprintf(".BR %s (1)", s)
		}
		b.WriteString(strings.Join(refs, ",\n") + "\n")
	}
	b.WriteString(".SH COPYRIGHT\nCopyright (c) 2026 Jose Corral. MIT License.\n")
	return b.String()
}

func synopsis(b *strings.Builder, c *cli.Command) {
	fmt.Fprintf(b, ".B %s\n", c.Name)
	if len(c.Commands) > 0 {
		b.WriteString("[\\fIoptions\\fR] \\fIcommand\\fR [\\fIcommand options\\fR] [\\fIarguments\\fR]\n")
	} else {
		fmt.Fprintf(b, "[\\fIoptions\\fR] %s\n", esc(c.ArgsUsage))
	}
}

func commandEntry(b *strings.Builder, prog string, n node) {
	c := n.cmd
	head := prog + " " + n.path
	if c.ArgsUsage != "" {
		head += " " + c.ArgsUsage
	}
	fmt.Fprintf(b, ".SS \"%s\"\n", esc(head))
	if c.Usage != "" {
		para(b, c.Usage)
	}
	if c.Description != "" {
		para(b, c.Description)
	}
	if len(c.Aliases) > 0 {
		fmt.Fprintf(b, "Aliases: %s.\n.PP\n", esc(strings.Join(c.Aliases, ", ")))
	}
	flagList(b, flags(c))
}

func flagList(b *strings.Builder, fs []flagInfo) {
	for _, f := range fs {
		names := dashed(f.names)
		for i := range names {
			names[i] = "\\fB" + esc(names[i]) + "\\fR"
		}
		head := strings.Join(names, ", ")
		placeholder, usage := splitPlaceholder(f.usage)
		if f.value {
			head += " \\fI" + esc(placeholder) + "\\fR"
		}
		fmt.Fprintf(b, ".TP\n%s\n", head)
		text := usage
		if f.required {
			text += " (required)"
		}
		if f.def != "" && f.def != `""` && f.def != "false" && f.def != "[]" {
			text += " (default: " + f.def + ")"
		}
		b.WriteString(esc(text) + "\n")
	}
}

// para writes plain text as roff paragraphs.
func para(b *strings.Builder, text string) {
	inVerbatim := false
	for i, line := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		verbatim := strings.HasPrefix(line, "  ")
		switch {
		case verbatim && !inVerbatim:
			b.WriteString(".PP\n.nf\n.RS 4\n")
		case !verbatim && inVerbatim:
			b.WriteString(".RE\n.fi\n")
		}
		inVerbatim = verbatim
		if strings.TrimSpace(line) == "" {
			if !inVerbatim && i > 0 {
				b.WriteString(".PP\n")
			}
			continue
		}
		if verbatim {
			line = strings.TrimPrefix(line, "  ")
		}
		b.WriteString(esc(line) + "\n")
	}
	if inVerbatim {
		b.WriteString(".RE\n.fi\n")
	}
	b.WriteString(".PP\n")
}

// esc makes text safe as roff: backslashes, leading control characters and
// hyphens (which must stay copy-pasteable as ASCII minus).
func esc(s string) string {
	s = strings.ReplaceAll(s, "\\", "\\e")
	s = strings.ReplaceAll(s, "-", "\\-")
	s = roffGlyphs.Replace(s)
	if strings.HasPrefix(s, ".") || strings.HasPrefix(s, "'") {
		s = "\\&" + s
	}
	return s
}

// splitPlaceholder reads urfave/cli's convention: a word in backticks in a
// flag's usage names its value ("read `FILE`" → FILE, "read FILE").
func splitPlaceholder(usage string) (placeholder, text string) {
	i := strings.IndexByte(usage, '`')
	if i >= 0 {
		if j := strings.IndexByte(usage[i+1:], '`'); j >= 0 {
			placeholder = usage[i+1 : i+1+j]
			return placeholder, usage[:i] + placeholder + usage[i+j+2:]
		}
	}
	return "value", usage
}

// roffGlyphs names the non-ASCII characters our help text uses, so groff
// renders them in any locale instead of warning.
var roffGlyphs = strings.NewReplacer("…", "...", "§", "\\[sc]", "—", "\\[em]", "–", "\\[en]", "→", "\\[->]", "←", "\\[<-]", "≥", "\\[>=]", "≤", "\\[<=]", "×", "\\[mu]", "‘", "'", "’", "'", "“", "\\[lq]", "”", "\\[rq]")
