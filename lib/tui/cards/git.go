package cards

import (
	"strconv"
	"strings"

	"github.com/josecorral/fluzo/lib/tui/text"
	"github.com/josecorral/fluzo/lib/tui/theme"
)

// gitCard: the git subcommand with its arguments, how it ended and a
// one-line summary (files changed, commits shown), then the output with
// diff lines in success and error.
func gitCard(c *card, op Op) error {
	var a gitArgs
	if err := args(op, &a); err != nil {
		return err
	}
	sub := strings.TrimPrefix(op.Tool, "git_")
	c.tool = "git " + safeLine(sub)
	c.subject = gitSubject(sub, a)
	var r processResult
	ok, err := result(op, &r)
	if err != nil || !ok {
		return err
	}
	end, failed := endText(r)
	c.meta = append(c.meta, end)
	if failed {
		c.status, c.label = stFailed, ""
		c.notices = append(c.notices, errorRow(end))
	}
	out := safeLines(r.Stdout)
	if s := gitSummary(sub, out); s != "" {
		c.meta = append(c.meta, s)
	}
	for _, l := range out {
		c.body = append(c.body, text.Line{{Text: l, Token: gitLineToken(sub, l)}})
	}
	if errLines := safeLines(r.Stderr); len(errLines) > 0 {
		c.body = append(c.body, text.Line{{Text: "stderr:", Token: theme.Muted}})
		c.body = append(c.body, plainRows(errLines, theme.Panel)...)
	}
	if r.StdoutTruncated {
		c.notices = append(c.notices, warningRow(droppedNote("output", r.StdoutBytes)))
	}
	return nil
}

func gitSubject(sub string, a gitArgs) string {
	var parts []string
	switch sub {
	case "diff":
		if a.Staged {
			parts = append(parts, "--staged")
		}
		parts = append(parts, a.Paths...)
	case "add":
		parts = a.Paths
	case "log":
		if a.N > 0 {
			parts = []string{"-n", strconv.Itoa(a.N)}
		}
	case "show":
		parts = []string{a.Rev}
	case "commit":
		return strconv.Quote(firstLine(a.Message))
	case "push":
		parts = []string{a.Remote, a.Branch}
	}
	return strings.TrimSpace(joinArgv(nonEmpty(parts)))
}

// gitSummary is the output's gist: files for status and diff, commits
// for log.
func gitSummary(sub string, out []string) string {
	n := 0
	switch sub {
	case "status":
		for _, l := range out {
			if !strings.HasPrefix(l, "##") && l != "" {
				n++
			}
		}
		if n == 0 {
			return "clean"
		}
		return plural(n, "file changed", "files changed")
	case "diff", "show":
		for _, l := range out {
			if strings.HasPrefix(l, "diff --git ") {
				n++
			}
		}
		if n > 0 {
			return plural(n, "file", "files")
		}
	case "log":
		return plural(len(out), "commit", "commits")
	}
	return ""
}

// gitLineToken colours a diff's added and removed lines; headers and the
// rest stay on the panel.
func gitLineToken(sub, l string) theme.Token {
	if sub != "diff" && sub != "show" {
		return theme.Panel
	}
	switch {
	case strings.HasPrefix(l, "+++"), strings.HasPrefix(l, "---"):
		return theme.Panel
	case strings.HasPrefix(l, "+"):
		return theme.Success
	case strings.HasPrefix(l, "-"):
		return theme.Error
	case strings.HasPrefix(l, "@@"):
		return theme.Accent
	}
	return theme.Panel
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}

func nonEmpty(ss []string) []string {
	var out []string
	for _, s := range ss {
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}
