package agent

import "testing"

func TestLoopDetectedAfterThreeEditTestFailCycles(t *testing.T) {
	d := LoopDetector{}
	f := FailureFingerprint("cargo test", "test x ... FAILED\nleft: 2, right: 4\nfinished in 0.14s")
	for i := 1; i <= 2; i++ {
		d.ObserveEdit()
		if l := d.ObserveTest(f); l != nil {
			t.Fatalf("loop reported after %d cycles", i)
		}
	}
	d.ObserveEdit()
	l := d.ObserveTest(f)
	if l == nil || l.Cycles != 3 || l.Failure != f {
		t.Fatalf("third cycle: %+v", l)
	}
	d.ObserveEdit()
	if d.ObserveTest(f) != nil {
		t.Fatal("the same streak was reported again before another threshold")
	}
}

func TestLoopStreakResetsOnPassOrDifferentFailure(t *testing.T) {
	d := LoopDetector{Threshold: 2}
	a, b := FailureFingerprint("t", "FAIL a"), FailureFingerprint("t", "FAIL b")
	d.ObserveEdit()
	d.ObserveTest(a)
	d.ObserveEdit()
	if d.ObserveTest(b) != nil {
		t.Fatal("different failures counted as one streak")
	}
	d.ObserveEdit()
	d.ObserveTest("")
	d.ObserveEdit()
	if d.ObserveTest(b) != nil {
		t.Fatal("a passing run did not reset the streak")
	}
	// Rerunning without editing is not a cycle.
	d.ObserveTest(b)
	d.ObserveTest(b)
	d.ObserveEdit()
	if l := d.ObserveTest(b); l == nil || l.Cycles != 2 {
		t.Fatalf("want a loop at 2 edit cycles, got %+v", l)
	}
}

func TestFailureFingerprintIgnoresTimingsButNotTheFailure(t *testing.T) {
	a := FailureFingerprint("cargo test", "test r ... FAILED\nfinished in 0.14s\nthread panicked at 0x7ff1")
	b := FailureFingerprint("cargo test", "test r ... FAILED\nfinished in 2.50s\nthread panicked at 0x1234")
	c := FailureFingerprint("cargo test", "test other ... FAILED")
	if a != b || a == c || a == FailureFingerprint("go test", "test r ... FAILED") {
		t.Fatalf("fingerprints a=%s b=%s c=%s", a, b, c)
	}
}
