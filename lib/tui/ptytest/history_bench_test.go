package ptytest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The §49.2 large history browsed on the real binary: fluzo-store fixture
// --large (FLUZO_BENCH_FIXTURE replaces its arguments, e.g. to scale it
// down; FLUZO_BENCH_FIXTURE_LAST then names its last step, e.g. "step
// 999"), then the sessions list and the newest session's long timeline
// paged to its end with PgDn. Reports the peak RSS of fluzo-tui (the
// < 64 MiB target) and of its fluzo-agent serve, sampled while browsing,
// and whether the timeline's last step was reached.
func BenchmarkLargeHistoryBrowse(b *testing.B) {
	s := startSim(b, idleScenario)
	for i := 0; i < b.N; i++ {
		ws, env := workspace(b, s, "")
		args := []string{"fixture", "--seed", "1", "--large"}
		if f := os.Getenv("FLUZO_BENCH_FIXTURE"); f != "" {
			args = append([]string{"fixture"}, strings.Fields(f)...)
		}
		fixture := exec.Command(filepath.Join(bin, "fluzo-store"), append([]string{"-C", ws}, args...)...)
		fixture.Env = env
		if out, err := fixture.CombinedOutput(); err != nil {
			b.Fatalf("fluzo-store %v: %v\n%s", args, err, out)
		}
		const cols, rows = 120, 40
		tm := startTUI(b, ws, env, cols, rows, "--reduced-motion")
		tm.waitFor("connected", 0, 60*time.Second)
		pid := tm.cmd.Process.Pid
		var peak, agentPeak int64
		sample := func() {
			_, r := procStat(pid)
			peak = max(peak, r)
			var a int64
			for _, k := range childrenOf(pid) {
				_, kr := procStat(k)
				a += kr
			}
			agentPeak = max(agentPeak, a)
		}
		tm.shows("ready", cols, rows, 60*time.Second) // the snapshot answered
		tm.write("\x13")                              // Ctrl+S
		tm.shows("synthetic session", cols, rows, 30*time.Second)
		for j := 0; j < 40; j++ { // page the list down and back
			tm.write("\x1b[6~")
			time.Sleep(5 * time.Millisecond)
		}
		tm.write("\x1b[5~\x1b[5~\x1b[5~\x1b[5~\r")
		tm.shows("start attempt 1", cols, rows, 60*time.Second) // the timeline's first steps
		sample()
		// PgDn (20 rows) until the last step shows: --large's newest session
		// has 12500 events, 12499 of them its task's. A press while the
		// next page is in flight moves nothing, so this checks, not counts.
		last := "step 12499"
		if os.Getenv("FLUZO_BENCH_FIXTURE") != "" {
			last = os.Getenv("FLUZO_BENCH_FIXTURE_LAST")
		}
		start, end := time.Now(), 0.0
		for time.Since(start) < 5*time.Minute && end == 0 {
			for j := 0; j < 100; j++ {
				tm.write("\x1b[6~")
				time.Sleep(10 * time.Millisecond)
				if j%25 == 0 {
					sample()
				}
			}
			if last == "" || tm.showsWithin(last, cols, rows, time.Second) {
				end = 1
			}
		}
		sample()
		b.ReportMetric(end, "timeline-end-reached")
		b.ReportMetric(time.Since(start).Seconds(), "browse-s")
		b.ReportMetric(float64(peak)/1024, "tui-peak-rss-MiB")
		b.ReportMetric(float64(agentPeak)/1024, "agent-peak-rss-MiB")
		tm.write("\x1b")
		time.Sleep(100 * time.Millisecond)
		tm.write("\x1b")
		time.Sleep(100 * time.Millisecond)
		tm.write("\x03")
		tm.kill()
	}
}
