package agent

import (
	"encoding/json"
	"sync"
	"time"

	"github.com/josecorral/fluzo/lib/tools/proc"
)

// The owner is the child subreaper of its tool trees: when a fluzo-tool
// serve dies, the kernel kills its children (parent-death signal) and
// hands their own orphans — daemons, background jobs — to the owner
// instead of init, where they can still be found and ended before the
// owner goes on or releases the workspace lock.

// strayWait bounds how long the owner waits for strays to die once
// SIGKILLed (a process in uninterruptible sleep can take a while).
const strayWait = 5 * time.Second

// serverExitWait bounds how long Close waits for fluzo-tool serve to
// stop its processes and exit (it needs two grace periods at most)
// before it is killed, which hands what it ran to the owner as strays.
const serverExitWait = 30 * time.Second

var adoptOnce sync.Once

// adoptToolOrphans makes this process the subreaper of its descendants
// (once; it is process-wide and harmless for a process that waits for
// its own children).
func adoptToolOrphans() {
	adoptOnce.Do(func() { proc.EnableSubreaper() })
}

// strayReport is what the owner did about processes that outlived their
// tool server: recorded as a tool_backend.processes_ended event.
type strayReport struct {
	Reason      string          `json:"reason"`
	Ended       []proc.Survivor `json:"ended"`
	Unconfirmed []proc.Survivor `json:"unconfirmed,omitempty"`
	// Unverified: the owner runs with no_new_privs itself, so it cannot
	// tell a tool tree's orphans from its own children and ended none.
	Unverified bool `json:"unverified,omitempty"`
}

// endToolStrays ends every tool-tree process this owner adopted; nil
// when there was nothing to do.
func endToolStrays(reason string) *strayReport {
	s := proc.Strays{ToolTreeOnly: true}
	if !s.Identifiable() {
		return &strayReport{Reason: reason, Ended: []proc.Survivor{}, Unverified: true}
	}
	ended, alive := s.End(strayWait)
	if len(ended) == 0 {
		return nil
	}
	return &strayReport{Reason: reason, Ended: ended, Unconfirmed: alive}
}

// withEnded adds to a command.result event the processes fluzo-tool ended
// because they outlived the command (a daemon, a background job), so the
// record says what was stopped and why, not only the model's tool result.
func withEnded(data map[string]any, out toolOutcome) map[string]any {
	var r struct {
		Ended []proc.Survivor `json:"ended"`
	}
	if out.OK && json.Unmarshal(out.Result, &r) == nil && len(r.Ended) > 0 {
		data["ended"] = r.Ended
		data["ended_reason"] = "outlived_the_command"
	}
	return data
}
