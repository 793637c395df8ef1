package ptytest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// largeDiffLines is the size of the diff the history browse opens: a
// task's command writes this many lines (FLUZO_BENCH_DIFF_LINES
// overrides it).
const largeDiffLines = 300000

// largeDiffScenario has the model run one command that writes a file of
// n lines (its content never passes through the conversation, so only
// the diff view's windows reach fluzo-tui), then finish.
func largeDiffScenario(n int) string {
	return fmt.Sprintf(`{"version":1,"name":"large-diff","models":["sim"],"steps":[
 {"id":"write","match":{"last_user":"large diff"},"respond":{"tool_calls":[{"id":"c1","name":"exec","arguments":{"argv":["sh","-c","seq -f 'line %%.0f of the large diff' 1 %d > big.txt"]}}]}},
 {"id":"done","match":{"tool_result":{"tool":"exec"}},"respond":{"text":"WROTE-THE-LARGE-DIFF"}}]}`, n)
}

// The §49.2 large history browsed on the real binary: fluzo-store fixture
// --large (FLUZO_BENCH_FIXTURE replaces its arguments, e.g. to scale it
// down; FLUZO_BENCH_FIXTURE_LAST then names its last step, e.g. "step
// 999"), then the sessions list and the newest session's long timeline
// paged to its end with PgDn, then back to live activity: a task writes a
// 300000-line file and its diff is opened and paged to its last line
// (End, then PgUp/PgDn). Reports the peak RSS of fluzo-tui (the < 64 MiB
// target) and of its fluzo-agent serve, sampled while browsing, whether
// the timeline's last step was reached, and whether the diff's last line
// was shown.
func BenchmarkLargeHistoryBrowse(b *testing.B) {
	lines := largeDiffLines
	if n, err := strconv.Atoi(os.Getenv("FLUZO_BENCH_DIFF_LINES")); err == nil && n > 0 {
		lines = n
	}
	s := startSim(b, largeDiffScenario(lines))
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
		browse := time.Since(start)
		b.ReportMetric(end, "timeline-end-reached")
		b.ReportMetric(browse.Seconds(), "browse-s")
		historyPeak := peak

		// Back to live activity: a task writes the large file (its command
		// approved on its card), then its diff is paged to the last line.
		tm.write("\x1b")
		time.Sleep(100 * time.Millisecond)
		tm.write("\x1b")
		time.Sleep(200 * time.Millisecond)
		tm.write("make the large diff\r")
		tm.shows("Waiting for your approval", cols, rows, 60*time.Second)
		tm.write("\t")
		time.Sleep(500 * time.Millisecond) // past the card's arming window
		tm.write("a")
		tm.shows("WROTE-THE-LARGE-DIFF", cols, rows, 120*time.Second)
		tm.write("\x06") // Ctrl+F
		tm.shows(fmt.Sprintf("+1,%d @@", lines), cols, rows, 60*time.Second)
		sample()
		diffEnd := 0.0
		lastLine := fmt.Sprintf("line %d of the large diff", lines)
		for j := 0; j < 20 && diffEnd == 0; j++ {
			tm.write("\x1b[F") // End: the last window
			if tm.showsWithin(lastLine, cols, rows, 2*time.Second) {
				diffEnd = 1
			}
			sample()
		}
		for j := 0; j < 200; j++ { // page back and forth through the windows
			if j < 100 {
				tm.write("\x1b[5~")
			} else {
				tm.write("\x1b[6~")
			}
			time.Sleep(10 * time.Millisecond)
			if j%20 == 0 {
				sample()
			}
		}
		sample()
		b.ReportMetric(diffEnd, "diff-end-reached")
		b.ReportMetric(float64(historyPeak)/1024, "tui-history-peak-rss-MiB")
		b.ReportMetric(float64(peak)/1024, "tui-peak-rss-MiB")
		b.ReportMetric(float64(agentPeak)/1024, "agent-peak-rss-MiB")
		tm.write("\x1b")
		time.Sleep(200 * time.Millisecond)
		tm.write("\x03")
		tm.kill()
	}
}
