package testscripts

import (
	"path/filepath"
	"time"

	"github.com/josecorral/fluzo/lib/admit"
	"github.com/rogpeppe/go-internal/testscript"
)

func init() { register("waitowner", waitOwner) }

// waitowner held|free [WORKSPACE] waits (up to 30 s) until the workspace's
// owner lock is in that state, so scripts can start a background owner
// and then contend with it without racing its start. "held" also waits
// for the owner's record: the owner takes the lock first and writes the
// record after (an fsync, slow on a loaded machine), and scripts check
// the record next. A record seen while the lock was still free is a
// previous owner's, so it does not count.
func waitOwner(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 1 || len(args) > 2 || (args[0] != "held" && args[0] != "free") {
		ts.Fatalf("usage: waitowner held|free [WORKSPACE]")
	}
	ws := "."
	if len(args) == 2 {
		ws = args[1]
	}
	drive := filepath.Join(ts.MkAbs(ws), ".fluzodrive")
	want := args[0] == "held"
	stale := ""
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		st, err := admit.OwnerStatus(drive)
		switch {
		case err != nil:
		case !want && !st.Held:
			return
		case !want:
		case !st.Held && st.Record != nil:
			stale = st.Record.Instance
		case st.Held && st.Record != nil && st.Record.State == admit.OwnerRunning && st.Record.Instance != stale:
			return
		}
	}
	ts.Fatalf("the owner lock of %s never became %s", ws, args[0])
}
