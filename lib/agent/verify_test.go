package agent

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

func TestVerificationContract(t *testing.T) {
	pass := &VerificationRun{Command: "cargo test", ExitCode: 0, State: "s2", EditSeq: 2}
	fail := &VerificationRun{Command: "cargo test", ExitCode: 101, State: "s2", EditSeq: 2}
	cases := []struct {
		name     string
		cmd      string
		waived   bool
		last     *VerificationRun
		edits    int64
		state    string
		complete bool
		outcome  string
	}{
		{"passes at current state", "cargo test", false, pass, 2, "s2", true, VerifyPassed},
		{"never ran", "cargo test", false, nil, 2, "s2", false, VerifyNotRun},
		{"failed", "cargo test", false, fail, 2, "s2", false, VerifyFailed},
		{"edit after the run", "cargo test", false, pass, 3, "s2", false, VerifyStale},
		{"outside change after the run", "cargo test", false, pass, 2, "s3", false, VerifyStale},
		{"nothing to verify and no waiver", "", false, nil, 5, "x", false, VerifyNotConfigured},
		{"explicit waiver", "", true, nil, 5, "x", true, VerifyWaived},
		{"a waiver does not override a declared command", "cargo test", true, fail, 2, "s2", false, VerifyFailed},
		// Two unreadable states are not the same state.
		{"state unknown then and now", "cargo test", false, &VerificationRun{Command: "cargo test", State: "unknown", EditSeq: 2}, 2, "unknown", false, VerifyStale},
		{"state unknown now", "cargo test", false, pass, 2, "unknown", false, VerifyStale},
		{"state unknown then", "cargo test", false, &VerificationRun{Command: "cargo test", State: "unknown", EditSeq: 2}, 2, "s2", false, VerifyStale},
		{"no state recorded", "cargo test", false, &VerificationRun{Command: "cargo test", EditSeq: 2}, 2, "", false, VerifyStale},
	}
	for _, c := range cases {
		v := DecideVerification(c.cmd, c.waived, c.last, c.edits, c.state)
		if v.Completed != c.complete || v.Verification != c.outcome {
			t.Errorf("%s: %+v", c.name, v)
		}
		if !v.Completed && v.Reason == "" {
			t.Errorf("%s: failure without a reason", c.name)
		}
	}
}

func TestWorkspaceFingerprintFollowsContentNotRuntimeState(t *testing.T) {
	dir := newRepo(t, map[string]string{"a.txt": "a\n", ".gitignore": "target/\n"})
	ctx := context.Background()
	reads := localReads(t, dir)
	fp := func() string {
		s, err := WorkspaceFingerprint(ctx, reads)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	clean := fp()
	os.MkdirAll(filepath.Join(dir, ".fluzodrive"), 0o700)
	os.WriteFile(filepath.Join(dir, ".fluzodrive", "state"), []byte("x"), 0o600)
	os.MkdirAll(filepath.Join(dir, "target"), 0o755)
	os.WriteFile(filepath.Join(dir, "target", "bin"), []byte("x"), 0o600)
	if fp() != clean {
		t.Fatal("runtime state or ignored build output changed the fingerprint")
	}
	writeFiles(t, dir, map[string]string{"a.txt": "b\n"})
	one := fp()
	writeFiles(t, dir, map[string]string{"a.txt": "c\n"})
	if one == clean || fp() == one {
		t.Fatal("content changes of a modified file were not seen")
	}
	writeFiles(t, dir, map[string]string{"a.txt": "a\n"})
	if fp() != clean {
		t.Fatal("restoring the content did not restore the fingerprint")
	}
}

func TestStaleVerdictSaysHowManyEditsSince(t *testing.T) {
	run := &VerificationRun{Command: "go test", ExitCode: 0, State: "s", EditSeq: 2}
	if v := DecideVerification("go test", false, run, 5, "s"); v.Verification != VerifyStale || v.EditsSince != 3 {
		t.Fatalf("three edits after the run: %+v", v)
	}
	if v := DecideVerification("go test", false, run, 2, "other"); v.Verification != VerifyStale || v.EditsSince != 0 {
		t.Fatalf("an outside change is stale with no task edit since: %+v", v)
	}
}
