package agent

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/tools"
)

// A run cancelled while its verification command runs (SIGTERM as the
// model claims completion) ends cancelled with every operation resolved:
// the verification's intent was committed before it ran, so its outcome
// commits too, even though the cancellation had already ended the
// attempt's context. Its outcome was written with that cancelled context
// before: the write failed, the error was dropped, and the run ended
// cancelled leaving the operation intent_committed — an unresolved
// operation with the owner alive to resolve it (the stability cohort's
// cancel failure had the same shape through the dispatch commit of its
// time). A verification the cancellation cut short is no verdict on the
// work either: not_run, not "failed with exit -1".
func TestCancelledVerificationIsResolvedAndNoVerdict(t *testing.T) {
	h := newHarness(t, map[string]string{"a.txt": "x\n"}, `{"version":1,"name":"t","models":["sim"],"steps":[
 {"id":"claim","match":{"messages":2},"respond":{"text":"done"}}]}`)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	started := filepath.Join(h.root, "verify.started")
	go func() {
		for {
			if _, err := os.Stat(started); err == nil {
				cancel()
				return
			}
			select {
			case <-ctx.Done():
				return
			case <-time.After(5 * time.Millisecond):
			}
		}
	}()
	res := h.runner.Run(ctx, taskStart{Request: "check it", Verify: "touch verify.started; sleep 60"})
	st := h.runner.Journal.(*storeJournal).S
	ops, err := st.ListOperations(context.Background(), res.Attempt)
	if err != nil {
		t.Fatal(err)
	}
	if len(ops) != 1 {
		t.Fatalf("want the verification's one operation, got %+v", ops)
	}
	if op := ops[0]; op.State != core.OpFailed {
		t.Fatalf("the cancelled verification's operation is %s, want failed (cancelled)", op.State)
	}
	if i, r := h.count(core.EvOperationIntent), h.count(core.EvOperationResult); i != r {
		t.Fatalf("%d intents but %d results", i, r)
	}
	if res.Verification.Verification == VerifyFailed || res.Verification.Completed {
		t.Fatalf("a verification cut short by the cancellation was taken for a verdict: %+v", res.Verification)
	}
	if res.Status != string(core.CodeCancelled) {
		t.Fatalf("a run cancelled during verification ended %q: %+v", res.Status, res)
	}
}

// cancelAtVerification cancels the run just as the verification's
// intent is about to be written: the moment a SIGTERM landed in the
// stability cohort (seed 1588 of the cancel-verify seeds).
type cancelAtVerification struct {
	*storeJournal
	cancel func()
}

func (j cancelAtVerification) OpAuthorize(ctx context.Context, refs Refs, call toolCall, op string, d Decision) (string, error) {
	if strings.HasPrefix(call.ID, "verify_") {
		j.cancel()
	}
	return j.storeJournal.OpAuthorize(ctx, refs, call, op, d)
}

// A run cancelled as its verification is about to start ends cancelled:
// the intent's write, cut short by the cancellation, is no journal
// failure, and nothing ran. It ended failed with reason
// journal_unavailable.
func TestRunCancelledAsVerificationStartsIsCancelled(t *testing.T) {
	h := newHarness(t, map[string]string{"a.txt": "x\n"}, `{"version":1,"name":"t","models":["sim"],"steps":[
 {"id":"claim","match":{"messages":2},"respond":{"text":"done"}}]}`)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	h.runner.Journal = cancelAtVerification{storeJournal: h.runner.Journal.(*storeJournal), cancel: cancel}
	res := h.runner.Run(ctx, taskStart{Request: "check it", Verify: "touch verify.ran"})
	if res.Status != string(core.CodeCancelled) || res.Verification.Verification != VerifyNotRun || res.Verification.Reason != ReasonVerificationCancelled {
		t.Fatalf("a run cancelled as its verification started: status %q, verification %+v", res.Status, res.Verification)
	}
	if _, err := os.Stat(filepath.Join(h.root, "verify.ran")); err == nil {
		t.Fatal("the verification command ran after the cancellation")
	}
	if i, r := h.count(core.EvOperationIntent), h.count(core.EvOperationResult); i != r {
		t.Fatalf("%d intents but %d results", i, r)
	}
}

// cancelAfterVerifyCommand cancels the run the moment its verification
// command has returned, before the workspace state it ran against is read.
type cancelAfterVerifyCommand struct {
	Tools
	cancel func()
}

// Query answers as a backend that honours cancellation does.
func (c cancelAfterVerifyCommand) Query(ctx context.Context, name string, args, out any) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return c.Tools.Query(ctx, name, args, out)
}

func (c cancelAfterVerifyCommand) Call(ctx context.Context, tool string, args json.RawMessage) (toolOutcome, error) {
	out, err := c.Tools.Call(ctx, tool, args)
	if tool == "exec" && strings.Contains(string(args), "verified") {
		c.cancel()
	}
	return out, err
}

// A cancellation that lands once the verification command has passed
// does not make its evidence unknown: the state it ran against is read
// and the verdict recorded anyway, against the real state. The read was
// made with the cancelled context: it failed, the state was recorded
// "unknown", and "unknown" equalled the current "unknown", so the run
// ended completed on evidence tied to no state.
func TestCancelAfterAPassingVerificationKeepsItsEvidence(t *testing.T) {
	h := newHarness(t, map[string]string{"a.txt": "x\n"}, `{"version":1,"name":"t","models":["sim"],"steps":[
 {"id":"claim","match":{"messages":2},"respond":{"text":"done"}}]}`)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	h.runner.Tools = cancelAfterVerifyCommand{h.runner.Tools, cancel}
	res := h.runner.Run(ctx, taskStart{Request: "check it", Verify: "touch verified"})
	v := res.Verification
	if v.Evidence == nil || v.Evidence.State == "" || v.Evidence.State == workspaceStateUnknown {
		t.Fatalf("the verification's evidence has no state: %+v", v)
	}
	if h.count(core.EvVerification) != 1 {
		t.Errorf("%d verification events, want the verdict recorded once", h.count(core.EvVerification))
	}
	if v.Completed && v.Verification != VerifyPassed {
		t.Errorf("completed on a %s verdict", v.Verification)
	}
}

// unreadableState is a backend that runs commands but cannot say what
// state the workspace is in.
type unreadableState struct{ Tools }

func (u unreadableState) Query(ctx context.Context, name string, args, out any) error {
	if name == tools.QueryFingerprint {
		return core.Errorf(core.CodeFailed, "the fingerprint cannot be read")
	}
	return u.Tools.Query(ctx, name, args, out)
}

// A verification command that passed against a state nobody could read
// completes nothing: "unknown" then and "unknown" now are not the same
// state. It completed before.
func TestPassingVerificationAgainstAnUnreadableStateDoesNotComplete(t *testing.T) {
	h := newHarness(t, map[string]string{"a.txt": "x\n"}, `{"version":1,"name":"t","models":["sim"],"steps":[
 {"id":"claim","match":{"messages":2},"respond":{"text":"done"}},
 {"id":"again","match":{"messages":4},"respond":{"text":"done"}},
 {"id":"more","match":{"messages":6},"respond":{"text":"done"}}]}`)
	h.runner.Tools = unreadableState{h.runner.Tools}
	h.runner.VerificationAttempts = 1
	res := h.runner.Run(context.Background(), taskStart{Request: "check it", Verify: "true"})
	if res.Status == "completed" || res.Verification.Completed {
		t.Fatalf("completed on evidence tied to no state: %+v", res)
	}
	if res.Verification.Reason != core.UnknownStateReason {
		t.Errorf("verdict %+v, want reason %s", res.Verification, core.UnknownStateReason)
	}
}
