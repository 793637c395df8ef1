package agent

import "testing"

func TestStepLimitGivesExactlyOneFinalization(t *testing.T) {
	s := stepLimit{MaxTurns: 2}
	got := []string{s.next(), s.next(), s.next(), s.next(), s.next()}
	want := []string{stepNormal, stepNormal, stepFinalize, stepStop, stepStop}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("step %d = %s, want %s (all %v)", i, got[i], want[i], got)
		}
	}
	r := stepLimit{MaxTurns: 3}
	r.resume(3)
	if r.next() != stepFinalize {
		t.Fatal("resume did not carry consumed turns forward")
	}
}
