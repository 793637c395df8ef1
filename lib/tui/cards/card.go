package cards

import (
	"strconv"
	"strings"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/termsafe"
	"github.com/josecorral/fluzo/lib/tui/text"
	"github.com/josecorral/fluzo/lib/tui/theme"
)

// Options shape a card.
type Options struct {
	Width    int  // cells; every row fits
	ASCII    bool // [v] [x] [.] icons and ASCII marks
	Expanded bool // show the whole body (exec output still bounded head+tail)
}

// CollapsedRows is how many body rows a collapsed card shows (the
// reference and Crush both use ten).
const CollapsedRows = 10

// ExpandedEdge is how many rows an expanded card keeps at each end of a
// body too long to show whole (command output): the head and the tail,
// with the count of rows omitted between them.
const ExpandedEdge = 60

// status is what the icon and the state text say.
type status int

const (
	stRunning status = iota
	stWaiting
	stOK
	stFailed
	stUnknown
)

// card is a tool card before layout.
type card struct {
	status  status
	label   string // state in words when the icon alone would not say it
	tool    string // title: the tool
	subject string // title: what it acted on, one line, sanitized
	// subjectCut marks a subject that is only the first line (a script).
	subjectCut bool
	meta       []string    // title: short facts (counts, exit code, duration)
	details    []text.Line // muted rows under the title (cwd, timeout)
	body       []text.Line // the content, one logical line each
	// notices are failures and truncation: always shown, never collapsed.
	notices []text.Line
}

// Render lays out op as a card at opts.Width cells.
func Render(op Op, opts Options) []text.Line {
	if opts.Width < 1 {
		opts.Width = 1
	}
	return layout(build(op), opts)
}

// build picks the renderer for op's tool kind.
func build(op Op) card {
	c := baseCard(op)
	var err error
	switch kindOf(op.Tool) {
	case kindView:
		err = viewCard(&c, op)
	case kindList:
		err = listCard(&c, op)
	case kindGrep:
		err = grepCard(&c, op)
	case kindEdit:
		err = editCard(&c, op)
	case kindWrite:
		err = writeCard(&c, op)
	case kindProcess:
		err = processCard(&c, op)
	case kindGit:
		err = gitCard(&c, op)
	case kindMCP:
		err = mcpCard(&c, op)
	default:
		err = genericCard(&c, op)
	}
	if err != nil {
		return undecodableCard(op, err)
	}
	return c
}

// baseCard fills what every card shows from the operation's state, its
// denial or error, and the journal's truncation stand-in.
func baseCard(op Op) card {
	c := card{tool: safeLine(op.Tool)}
	if c.tool == "" {
		c.tool = "tool"
	}
	switch core.OperationState(op.State) {
	case core.OpSucceeded:
		c.status = stOK
	case core.OpFailed:
		c.status, c.label = stFailed, "failed"
	case core.OpDenied:
		c.status, c.label = stFailed, "denied"
		c.notices = append(c.notices, errorRow("denied by policy"+ruleSuffix(op.Rule)+reasonSuffix(op.Reason)))
	case core.OpUnknown:
		c.status, c.label = stUnknown, "outcome unknown"
		c.notices = append(c.notices, warningRow("the runtime stopped before this operation's outcome was recorded; it is not replayed on resume"))
	default:
		c.status, c.label = stRunning, "running"
		if op.Waiting {
			c.status, c.label = stWaiting, "waiting for approval"
		}
	}
	if out, ok := decodeOutcome(op); ok {
		if out.Error != nil {
			// An unknown outcome's error says why it is unknown; the card
			// must not turn it into a failure.
			if c.status != stUnknown {
				c.status, c.label = stFailed, "failed"
			}
			c.notices = append(c.notices, errorRow(errorText(out.Error)))
			if out.Error.Hint != "" {
				c.notices = append(c.notices, mutedRow("hint: "+safeLine(out.Error.Hint)))
			}
		}
		if out.Truncated {
			c.notices = append(c.notices, warningRow("result too large to keep inline ("+strconv.FormatInt(out.Bytes, 10)+" bytes)"+artifactSuffix(op.Artifact)))
		}
	} else if c.status == stFailed && op.Reason != "" && core.OperationState(op.State) == core.OpFailed {
		c.notices = append(c.notices, errorRow("failed: "+safeLine(op.Reason)))
	}
	return c
}

// decodeOutcome returns op's outcome when one is present and decodes;
// a present but undecodable one is reported by result().
func decodeOutcome(op Op) (outcome, bool) {
	var out outcome
	if len(op.Result) == 0 || decode("result", op.Result, &out) != nil {
		return out, false
	}
	return out, true
}

// result decodes op's tool result into v. It reports false (and no
// error) when there is none yet or it was not kept inline.
func result(op Op, v any) (bool, error) {
	if len(op.Result) == 0 {
		return false, nil
	}
	var out outcome
	if err := decode("result", op.Result, &out); err != nil {
		return false, err
	}
	if !out.OK || out.Truncated || len(out.Result) == 0 || string(out.Result) == "null" {
		return false, nil
	}
	return true, decode(safeLine(op.Tool)+" result", out.Result, v)
}

// args decodes op's arguments into v; absent arguments leave v zero.
func args(op Op, v any) error {
	if len(op.Args) == 0 || string(op.Args) == "null" {
		return nil
	}
	return decode(safeLine(op.Tool)+" arguments", op.Args, v)
}

func errorText(e *core.Error) string {
	if e.Code == "" {
		return safeLine(e.Message)
	}
	return safeLine(string(e.Code)) + ": " + safeLine(e.Message)
}

func ruleSuffix(rule string) string {
	if rule == "" {
		return ""
	}
	return " (rule " + safeLine(rule) + ")"
}

func reasonSuffix(reason string) string {
	if reason == "" {
		return ""
	}
	return ": " + safeLine(reason)
}

func artifactSuffix(a string) string {
	if a == "" {
		return ""
	}
	return "; full result in artifact " + safeLine(a)
}

// safeLine is every one-line field (paths, argv items, names, messages)
// as it may be shown: controls, newlines and bidi overrides escaped.
func safeLine(s string) string { return termsafe.Line(s) }

// safeLines splits multi-line text (file content, output) into sanitized
// lines; tabs stay and are expanded at layout.
func safeLines(s string) []string {
	s = strings.TrimSuffix(s, "\n")
	if s == "" {
		return nil
	}
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		// A CR before the newline is a line ending (CRLF output), not an
		// overwrite; any other CR is escaped like every control.
		lines[i] = termsafe.Text(strings.TrimSuffix(l, "\r"))
	}
	return lines
}

func plainRows(lines []string, tok theme.Token) []text.Line {
	out := make([]text.Line, len(lines))
	for i, l := range lines {
		out[i] = text.Line{{Text: l, Token: tok}}
	}
	return out
}

func errorRow(s string) text.Line   { return text.Line{{Text: s, Token: theme.Error}} }
func warningRow(s string) text.Line { return text.Line{{Text: s, Token: theme.Warning}} }
func mutedRow(s string) text.Line   { return text.Line{{Text: s, Token: theme.Muted}} }

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}
