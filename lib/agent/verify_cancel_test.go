package agent

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/josecorral/fluzo/lib/core"
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
