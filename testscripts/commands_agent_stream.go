package testscripts

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/store"
	"github.com/rogpeppe/go-internal/testscript"
)

func init() { register("stream-has-store-events", streamHasStoreEvents) }

// stream-has-store-events FILE... checks that every event the store of
// the current workspace holds appears, by id, among the JSON lines of the
// FILEs (runs' --json output): every durable event reaches a stream.
func streamHasStoreEvents(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) == 0 {
		ts.Fatalf("usage: stream-has-store-events FILE...")
	}
	streamed := map[string]bool{}
	var lines []string
	for _, f := range args {
		lines = append(lines, strings.Split(ts.ReadFile(f), "\n")...)
	}
	for _, line := range lines {
		var rec struct {
			ID string `json:"id"`
		}
		if json.Unmarshal([]byte(line), &rec) == nil && rec.ID != "" {
			streamed[rec.ID] = true
		}
	}
	ctx := context.Background()
	ws, err := store.ResolveWorkspace(ctx, ts.MkAbs("."))
	ts.Check(err)
	s, err := store.OpenReadOnly(ctx, ws)
	ts.Check(err)
	defer s.Close()
	var missing []string
	n := 0
	_, err = s.EachEvent(ctx, store.EventQuery{}, func(ev core.Event) error {
		n++
		if !streamed[ev.ID] {
			missing = append(missing, ev.Type+" "+ev.ID)
		}
		return nil
	})
	ts.Check(err)
	if n == 0 {
		ts.Fatalf("the store holds no events")
	}
	if len(missing) > 0 {
		ts.Fatalf("%d of %d stored events never reached the stream: %s", len(missing), n, strings.Join(missing, ", "))
	}
}
