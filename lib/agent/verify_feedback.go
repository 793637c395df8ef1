package agent

import (
	"context"
	"fmt"
	"strings"

	"github.com/josecorral/fluzo/lib/core"
)

// defaultVerificationAttempts is harness.verification_attempts' default.
const defaultVerificationAttempts = 3

// Bounds of the failure excerpt the model is shown: the head carries the
// first errors (compilers stop there), the tail the summary a test runner
// prints last.
const (
	feedbackHeadBytes = 2 << 10
	feedbackTailBytes = 2 << 10
)

// sectionVerificationFeedback names the runtime's message telling the
// model its claim of completion did not verify.
const sectionVerificationFeedback = "verification_feedback"

// verifyClaim runs the verification contract when the model stops. It
// returns true when the run must go on: the command failed, runs remain,
// and no loop was detected — the model is then told the command, its exit
// code and a bounded excerpt of its output. Otherwise the last verdict
// stands and finish decides the task with it.
func (a *run) verifyClaim(ctx context.Context) bool {
	v := a.tracedVerify(ctx)
	a.verdict = &v
	if v.Verification != VerifyFailed || v.Evidence == nil {
		return false
	}
	a.verifyRuns++
	if l := a.loops.observeTest(failureFingerprint(v.Evidence.Command, a.verifyOutput)); l != nil {
		a.found = append(a.found, *l)
		a.record(ctx, core.EvLoopDetected, l)
		a.observe("loop_detected", l)
		return false
	}
	limit := orDefault(a.VerificationAttempts, defaultVerificationAttempts)
	// A policy denial blocked required work: more runs cannot help
	// until the user grants it (the task ends permission_denied).
	if a.verifyRuns >= limit || a.denied {
		return false
	}
	text := verificationFeedback(*v.Evidence, a.verifyOutput, a.verifyRuns, limit)
	a.msgs = append(a.msgs, message{Role: roleUser, Content: text, Section: sectionVerificationFeedback})
	// Recorded like any message of the conversation, attributed to the
	// runtime: the user did not write it and the model did not say it.
	a.record(ctx, core.EvMessage, map[string]any{"role": roleUser, "author": "runtime", "purpose": sectionVerificationFeedback,
		"content": text, "run": a.verifyRuns, "of": limit})
	return true
}

// verificationFeedback is the message the model receives after a failed
// verification run. The output is quoted as is; the model path encodes it
// verbatim.
func verificationFeedback(r VerificationRun, output string, run, limit int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Verification failed: the runtime ran the task's verification command `%s` and it exited with code %d (verification run %d of %d). ", r.Command, r.ExitCode, run, limit)
	b.WriteString("The task is not complete. Find and fix the cause, then stop; the runtime runs the command again when you stop.\n")
	fmt.Fprintf(&b, "Output (%d bytes):\n", len(output))
	b.WriteString(headTail(output, feedbackHeadBytes, feedbackTailBytes))
	return b.String()
}

// headTail keeps the first head and last tail bytes of s, marking what was
// left out; cuts fall on line boundaries when one is near.
func headTail(s string, head, tail int) string {
	if len(s) <= head+tail {
		return s
	}
	h := s[:head]
	if i := strings.LastIndexByte(h, '\n'); i >= head-200 {
		h = h[:i+1]
	}
	t := s[len(s)-tail:]
	if i := strings.IndexByte(t, '\n'); i >= 0 && i < 200 {
		t = t[i+1:]
	}
	return fmt.Sprintf("%s[… %d bytes left out …]\n%s", h, len(s)-len(h)-len(t), t)
}
