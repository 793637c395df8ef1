package cards

import (
	"sort"
	"strconv"
	"strings"

	"github.com/josecorral/fluzo/lib/tui/text"
	"github.com/josecorral/fluzo/lib/tui/theme"
)

// processCard (exec, shell): the command, where it ran, how it ended and
// how long it took, then its output. Captured output is already bounded
// by fluzo-tool (head and tail, with a marker); the card bounds rows again
// when expanded and says when bytes were dropped.
func processCard(c *card, op Op) error {
	var a processArgs
	if err := args(op, &a); err != nil {
		return err
	}
	if op.Tool == "shell" {
		shellSubject(c, a.Script)
	} else {
		c.subject = joinArgv(a.Argv)
	}
	var r processResult
	ok, err := result(op, &r)
	if err != nil {
		return err
	}
	cwd := a.Cwd
	if ok && r.Cwd != "" {
		cwd = r.Cwd
	}
	if cwd != "" {
		c.details = append(c.details, mutedRow("in "+safeLine(cwd)))
	}
	if names := envNames(a.Env); names != "" {
		c.details = append(c.details, mutedRow("env "+names))
	}
	if ok {
		processOutcome(c, r)
	} else if op.Command != nil {
		evidenceOutcome(c, *op.Command)
	}
	if op.Command != nil && op.Command.Failure != "" {
		c.notices = append(c.notices, mutedRow("failure: "+safeLine(op.Command.Failure)))
	}
	return nil
}

func shellSubject(c *card, script string) {
	lines := safeLines(script)
	if len(lines) == 0 {
		return
	}
	c.subject = lines[0]
	if len(lines) > 1 {
		c.subjectCut = true
		c.meta = append(c.meta, plural(len(lines), "script line", "script lines"))
		for i, l := range lines {
			lead := "  "
			if i == 0 {
				lead = "$ "
			}
			c.body = append(c.body, text.Line{{Text: lead + l, Token: theme.Muted}})
		}
	}
}

// processOutcome adds how the process ended, its output and what of it
// was dropped.
func processOutcome(c *card, r processResult) {
	end, failed := endText(r)
	c.meta = append(c.meta, end, duration(r.DurationMS))
	if failed {
		c.status, c.label = stFailed, ""
		c.notices = append(c.notices, errorRow(end))
	}
	if r.TimeoutCapped {
		c.details = append(c.details, mutedRow("timeout capped at "+strconv.FormatFloat(r.TimeoutSeconds, 'f', -1, 64)+"s by the task's budget"))
	}
	stdout, stderr := safeLines(r.Stdout), safeLines(r.Stderr)
	c.body = append(c.body, plainRows(stdout, theme.Panel)...)
	if len(stderr) > 0 {
		c.body = append(c.body, text.Line{{Text: "stderr:", Token: theme.Muted}})
		c.body = append(c.body, plainRows(stderr, theme.Panel)...)
	}
	if r.StdoutTruncated {
		c.notices = append(c.notices, warningRow(droppedNote("stdout", r.StdoutBytes)))
	}
	if r.StderrTruncated {
		c.notices = append(c.notices, warningRow(droppedNote("stderr", r.StderrBytes)))
	}
	if n := len(r.Unconfirmed); n > 0 {
		c.notices = append(c.notices, warningRow(plural(n, "process", "processes")+" of this command could not be confirmed stopped"))
	}
}

// endText says how the process ended and whether that is a failure.
func endText(r processResult) (string, bool) {
	switch {
	case r.TimedOut:
		return "timed out after " + strconv.FormatFloat(r.TimeoutSeconds, 'f', -1, 64) + "s", true
	case r.Cancelled:
		return "cancelled", true
	case r.ExitCode == nil && r.Signal != "":
		return "killed by " + safeLine(r.Signal), true
	case r.ExitCode == nil:
		return "no exit code", true
	}
	return "exit " + strconv.Itoa(*r.ExitCode), *r.ExitCode != 0
}

// evidenceOutcome uses the runtime's command.result when the full result
// is not at hand: the exit code and the tail of the output.
func evidenceOutcome(c *card, e CommandEvidence) {
	end, failed := endText(processResult{ExitCode: e.ExitCode, Cancelled: e.Cancelled, Signal: e.Signal})
	c.meta = append(c.meta, end)
	if failed {
		c.status, c.label = stFailed, ""
		c.notices = append(c.notices, errorRow(end))
	}
	c.body = append(c.body, plainRows(safeLines(e.OutputTail), theme.Panel)...)
	if e.OutputTail != "" {
		c.notices = append(c.notices, warningRow("showing the tail of the output kept as evidence"))
	}
}

func droppedNote(stream string, total int64) string {
	return stream + " truncated: " + strconv.FormatInt(total, 10) + " bytes written, the middle omitted (first and last parts kept)"
}

// joinArgv shows an argv as one line: every item sanitized on its own
// (so an item cannot forge a separator), quoted when it holds spaces or
// quotes or is empty, so item boundaries stay visible.
func joinArgv(argv []string) string {
	parts := make([]string, len(argv))
	for i, a := range argv {
		s := safeLine(a)
		if s == "" || strings.ContainsAny(s, " \"'") {
			s = `"` + strings.ReplaceAll(s, `"`, `\"`) + `"`
		}
		parts[i] = s
	}
	return strings.Join(parts, " ")
}

// envNames lists the names set for the command, never their values.
func envNames(env map[string]string) string {
	if len(env) == 0 {
		return ""
	}
	names := make([]string, 0, len(env))
	for k := range env {
		names = append(names, safeLine(k))
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}
