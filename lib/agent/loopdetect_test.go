package agent

import "testing"

func TestLoopDetectedAfterThreeEditTestFailCycles(t *testing.T) {
	d := loopDetector{}
	f := failureFingerprint("cargo test", "test x ... FAILED\nleft: 2, right: 4\nfinished in 0.14s")
	for i := 1; i <= 2; i++ {
		d.observeEdit()
		if l := d.observeTest(f); l != nil {
			t.Fatalf("loop reported after %d cycles", i)
		}
	}
	d.observeEdit()
	l := d.observeTest(f)
	if l == nil || l.Cycles != 3 || l.Failure != f {
		t.Fatalf("third cycle: %+v", l)
	}
	d.observeEdit()
	if d.observeTest(f) != nil {
		t.Fatal("the same streak was reported again before another threshold")
	}
}

func TestLoopStreakResetsOnPassOrDifferentFailure(t *testing.T) {
	d := loopDetector{Threshold: 2}
	a, b := failureFingerprint("t", "FAIL a"), failureFingerprint("t", "FAIL b")
	d.observeEdit()
	d.observeTest(a)
	d.observeEdit()
	if d.observeTest(b) != nil {
		t.Fatal("different failures counted as one streak")
	}
	d.observeEdit()
	d.observeTest("")
	d.observeEdit()
	if d.observeTest(b) != nil {
		t.Fatal("a passing run did not reset the streak")
	}
	// Rerunning without editing is not a cycle.
	d.observeTest(b)
	d.observeTest(b)
	d.observeEdit()
	if l := d.observeTest(b); l == nil || l.Cycles != 2 {
		t.Fatalf("want a loop at 2 edit cycles, got %+v", l)
	}
}

func TestFailureFingerprintIgnoresTimingsButNotTheFailure(t *testing.T) {
	a := failureFingerprint("cargo test", "test r ... FAILED\nfinished in 0.14s\nthread panicked at 0x7ff1")
	b := failureFingerprint("cargo test", "test r ... FAILED\nfinished in 2.50s\nthread panicked at 0x1234")
	c := failureFingerprint("cargo test", "test other ... FAILED")
	if a != b || a == c || a == failureFingerprint("go test", "test r ... FAILED") {
		t.Fatalf("fingerprints a=%s b=%s c=%s", a, b, c)
	}
}
