package agent

import (
	"os"
	"runtime"

	// The agent's threads run with a wider timer slack, so that the
	// runtime's sysmon wakes the machine less often (see the package).
	_ "github.com/josecorral/fluzo/lib/timerslack/sysmon"
)

// A headless run is one goroutine at work at a time — waiting on the
// model's stream, on fluzo-tool or on an fsync — so a second P buys it no
// parallelism, only an idle P spinning for work and cross-thread wakeups
// at every hand-off. Measured with scripts/bench agent (200 turns, loaded
// 2-core machine): own CPU per turn p50 3.7-4.3 ms with two Ps, 2.7-3.1
// ms with one, wall per turn lower too, peak RSS 1 MiB lower. The
// interactive modes (serve, acp) keep the default: they stream to a
// client while a turn runs.

// headlessProcs is the GOMAXPROCS a headless run sets, or 0 to leave it:
// an explicit GOMAXPROCS in the environment is the user's choice.
func headlessProcs(getenv func(string) string) int {
	if getenv("GOMAXPROCS") != "" {
		return 0
	}
	return 1
}

// leanHeadless applies headlessProcs.
func leanHeadless() {
	if n := headlessProcs(os.Getenv); n > 0 {
		runtime.GOMAXPROCS(n)
	}
}
