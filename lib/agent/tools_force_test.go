package agent

import (
	"context"
	"encoding/json"
	"testing"
	"time"
)

// A force stop can arrive after a call was dispatched (the view shows it
// running) but before its request id is known to the client; the kill
// must still reach the command when its request goes out.
func TestForceStopBeforeTheRequestIdIsKnownKillsTheCommand(t *testing.T) {
	tc := localReads(t, t.TempDir())
	ctx, cancel := context.WithTimeout(context.Background(), 40*time.Second)
	defer cancel()
	if err := tc.Kill(ctx); err != nil {
		t.Fatalf("kill with nothing in flight: %v", err)
	}
	out, err := tc.Call(ctx, "exec", json.RawMessage(`{"argv":["sleep","20"]}`))
	if err != nil {
		t.Fatal(err)
	}
	var res struct {
		Killed   bool   `json:"killed"`
		Signal   string `json:"signal"`
		ExitCode *int   `json:"exit_code"`
	}
	if err := json.Unmarshal(out.Result, &res); err != nil {
		t.Fatalf("result %s: %v", out.Result, err)
	}
	if !res.Killed || res.Signal != "SIGKILL" || res.ExitCode != nil {
		t.Fatalf("the command was not force-stopped: %s", out.Result)
	}
}
