package diffview

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/termsafe"
)

// Verification is the task's last verification record: the contract's
// outcome and, when the command ran, what ran and what it printed (the
// bounded tail the runtime kept as evidence).
type Verification struct {
	Outcome   string // passed, failed, stale, not_run, not_configured, waived
	Completed bool
	Reason    string
	Command   string
	Exit      *int // nil: the command did not run (or its exit is unknown)
	Ran       bool
	// EditsSince counts the task's edits after the command ran.
	EditsSince int64
	Output     []string
}

// maxOutputLines bounds the output rows kept (the runtime keeps a 4 KiB
// tail; this guards against a newer, larger one).
const maxOutputLines = 400

type wireVerdict struct {
	Completed    bool   `json:"completed"`
	Verification string `json:"verification"`
	Reason       string `json:"reason"`
	EditsSince   int64  `json:"edits_since"`
	Evidence     *struct {
		Command  string `json:"command"`
		ExitCode *int   `json:"exit_code"`
		Output   string `json:"output"`
	} `json:"evidence"`
}

// ParseVerification reads a verification.result record (the result's
// verification has the same shape).
func ParseVerification(raw json.RawMessage) (*Verification, error) {
	var w wireVerdict
	if err := json.Unmarshal(raw, &w); err != nil || w.Verification == "" {
		return nil, core.Errorf(core.CodeInvalidRequest, "the verification record could not be read").With("field", "verification").
			WithHint("use fluzo-tui and fluzo-agent from the same toolkit version")
	}
	v := &Verification{Outcome: termsafe.Line(w.Verification), Completed: w.Completed, Reason: termsafe.Line(w.Reason), EditsSince: w.EditsSince}
	if e := w.Evidence; e != nil {
		v.Ran, v.Command, v.Exit = true, termsafe.Line(e.Command), e.ExitCode
		lines := strings.Split(strings.TrimRight(e.Output, "\n"), "\n")
		if len(lines) > maxOutputLines {
			lines = lines[len(lines)-maxOutputLines:]
		}
		for _, l := range lines {
			v.Output = append(v.Output, termsafe.Line(strings.ReplaceAll(l, "\t", "    ")))
		}
		if e.Output == "" {
			v.Output = nil
		}
	}
	return v, nil
}

// ExitText is the exit code, or why there is none.
func (v *Verification) ExitText() string {
	switch {
	case !v.Ran:
		return "none: the command did not run"
	case v.Exit == nil:
		return "unknown (the command was stopped)"
	}
	return fmt.Sprint(*v.Exit)
}

// When places the run against the task's edits.
func (v *Verification) When() string {
	if v.Ran && v.EditsSince > 0 {
		return fmt.Sprintf("stale: %d edit(s) since", v.EditsSince)
	}
	switch v.Outcome {
	case "passed", "failed":
		return "after the last edit"
	case "stale":
		if v.Reason == core.UnknownStateReason {
			return "unproven: the workspace state it ran against could not be read"
		}
		return "stale: the workspace changed after it ran"
	case "not_run":
		if v.Reason != "" {
			return "not run (" + v.Reason + ")"
		}
		return "not run"
	case "waived":
		return "waived by the user: nothing was run"
	case "not_configured":
		return "no verification command is configured"
	}
	return "unknown"
}

// failurePattern matches the lines test runners and compilers print for a
// failure: Go's "--- FAIL", "FAIL pkg", "panic:", cargo's "test x ...
// FAILED" and "error[E…]", pytest's "FAILED x::y", TAP's "not ok",
// "file:line: error" and plain "Error:" lines.
var failurePattern = regexp.MustCompile(`(?i)^\s*(--- FAIL|FAIL\b|FAILED\b|panic:|not ok\b|error(\[|:)|fatal:)|\bFAILED\s*$|:\d+(:\d+)?:\s*(error|fatal)\b|\bAssertionError\b`)

// IsFailure reports whether an output line reports a failure.
func IsFailure(line string) bool { return failurePattern.MatchString(line) }

var failingTestPatterns = []*regexp.Regexp{
	regexp.MustCompile(`^\s*--- FAIL: (\S+)`),           // go test
	regexp.MustCompile(`^test (\S+) \.\.\. FAILED\s*$`), // cargo test
	regexp.MustCompile(`^FAILED (\S+)`),                 // pytest -q summary
	regexp.MustCompile(`^not ok \d+ (?:- )?(.+)$`),      // TAP
}

// maxFailing bounds the failing test names listed.
const maxFailing = 20

// FailingTests lists the failing test names the output names, in order,
// each once.
func (v *Verification) FailingTests() []string {
	var out []string
	seen := map[string]bool{}
	for _, l := range v.Output {
		for _, p := range failingTestPatterns {
			if m := p.FindStringSubmatch(l); m != nil && !seen[m[1]] && len(out) < maxFailing {
				seen[m[1]] = true
				out = append(out, m[1])
			}
		}
	}
	return out
}
