package agent

import (
	"strings"
	"testing"
)

// The model sees a bounded excerpt of a long failure: the first errors
// and the final summary, with the size of what was left out.
func TestVerificationFeedbackIsBoundedHeadAndTail(t *testing.T) {
	var b strings.Builder
	b.WriteString("error: first failure here\n")
	for i := 0; b.Len() < 100<<10; i++ {
		b.WriteString("noise line that repeats itself many times over\n")
	}
	b.WriteString("test result: FAILED. 1 passed; 1 failed\n")
	out := b.String()
	msg := verificationFeedback(VerificationRun{Command: "cargo test", ExitCode: 101}, out, 1, 3)
	if len(msg) > feedbackHeadBytes+feedbackTailBytes+600 {
		t.Fatalf("feedback is %d bytes, not bounded", len(msg))
	}
	for _, want := range []string{"`cargo test`", "exited with code 101", "run 1 of 3", "error: first failure here", "test result: FAILED", "bytes left out"} {
		if !strings.Contains(msg, want) {
			t.Errorf("feedback lacks %q:\n%s", want, msg)
		}
	}
	if short := verificationFeedback(VerificationRun{Command: "x", ExitCode: 1}, "a < b && c\n", 1, 2); !strings.HasSuffix(short, "a < b && c\n") {
		t.Errorf("a short output is not quoted as is: %q", short)
	}
}
