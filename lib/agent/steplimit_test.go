package agent

import "testing"

func TestStepLimitGivesExactlyOneFinalization(t *testing.T) {
	s := StepLimit{MaxTurns: 2}
	got := []string{s.Next(), s.Next(), s.Next(), s.Next(), s.Next()}
	want := []string{StepNormal, StepNormal, StepFinalize, StepStop, StepStop}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("step %d = %s, want %s (all %v)", i, got[i], want[i], got)
		}
	}
	r := StepLimit{MaxTurns: 3}
	r.Resume(3)
	if r.Next() != StepFinalize {
		t.Fatal("resume did not carry consumed turns forward")
	}
}
