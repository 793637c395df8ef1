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
