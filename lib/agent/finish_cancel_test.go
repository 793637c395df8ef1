package agent

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/josecorral/fluzo/lib/core"
)

// A cancellation that cuts the context build short (git status killed
// with the context) ends the task cancelled, not failed: found by the
// stability cohort (lib/chaos TestStability, variant cancel).
func TestCancelDuringTheContextBuildIsCancelled(t *testing.T) {
	h := newHarness(t, nil, twoExecs, "exec:true")
	ctx, cancel := context.WithCancel(context.Background())
	h.runner.Tools = &cancellingTools{Tools: h.runner.Tools, cancel: cancel}
	res := h.runner.Run(ctx, taskStart{Request: "run", NoVerify: true})
	if res.Status != string(core.CodeCancelled) || res.Reason != "cancelled" || res.Error == nil || res.Error.Code != core.CodeCancelled {
		t.Fatalf("result: %+v", res)
	}
}

// cancellingTools cancels the run when the context build asks for the
// tool schemas, just before it inspects the workspace with git.
type cancellingTools struct {
	Tools
	cancel func()
}

func (c *cancellingTools) Schemas() json.RawMessage { c.cancel(); return c.Tools.Schemas() }

// A cancellation that cuts a journal write short ends cancelled, not
// storage_error (exit 13 would send the user to repair an intact store):
// found by the stability cohort (variant cancel, seeds 40 and 70).
func TestCancelDuringAJournalWriteIsCancelled(t *testing.T) {
	h := newHarness(t, nil, twoExecs, "exec:true")
	ctx, cancel := context.WithCancel(context.Background())
	h.runner.Journal = &cancellingJournal{journal: h.runner.Journal, cancel: cancel}
	res := h.runner.Run(ctx, taskStart{Request: "run", NoVerify: true})
	if res.Status != string(core.CodeCancelled) || res.Reason != "cancelled" || res.ExitCode() != core.ExitFor(core.CodeCancelled) {
		t.Fatalf("result: %+v", res)
	}
}

// cancellingJournal cancels the run as the prompt receipt is stored, so
// the write runs on a cancelled context.
type cancellingJournal struct {
	journal
	cancel func()
}

func (c *cancellingJournal) RecordStart(ctx context.Context, refs Refs, data []byte, mediaType string, reserve *reservation, build func(string) []derivedEvent) (string, error) {
	c.cancel()
	return c.journal.RecordStart(ctx, refs, data, mediaType, reserve, build)
}
