package ptytest

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The PTY half of "scripts/bench tui": measured, never asserted.

func percentiles(b *testing.B, d []time.Duration, qs ...float64) {
	slices.Sort(d)
	for _, q := range qs {
		v := float64(d[min(len(d)-1, int(float64(len(d))*q))].Microseconds()) / 1000
		b.ReportMetric(v, fmt.Sprintf("p%g-ms", q*100))
	}
}

// procStat returns utime+stime in clock ticks and VmRSS in KiB.
func procStat(pid int) (ticks int64, rssKiB int64) {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err == nil {
		s := string(stat)
		f := strings.Fields(s[strings.LastIndexByte(s, ')')+2:])
		u, _ := strconv.ParseInt(f[11], 10, 64)
		st, _ := strconv.ParseInt(f[12], 10, 64)
		ticks = u + st
	}
	status, _ := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	for _, line := range strings.Split(string(status), "\n") {
		if strings.HasPrefix(line, "VmRSS:") {
			rssKiB, _ = strconv.ParseInt(strings.Fields(line)[1], 10, 64)
		}
	}
	return ticks, rssKiB
}

// clkTck is the kernel's USER_HZ, 100 on every Linux the toolkit targets.
const clkTck = 100

// Exec to the first usable frame (the composer's placeholder in the byte
// stream), one launch per iteration.
func BenchmarkFirstFrame(b *testing.B) {
	s := startSim(b, idleScenario)
	ws, env := workspace(b, s, "")
	d := make([]time.Duration, 0, b.N)
	for i := 0; i < b.N; i++ {
		tm := startTerm(b, 120, 40, env, ws, filepath.Join(bin, "fluzo-tui"), "--workspace", ws)
		at, _ := tm.waitFor("Ask anything", 0, 30*time.Second)
		d = append(d, at.Sub(tm.start))
		tm.waitFor("connected", 0, 30*time.Second)
		tm.write("\x03")
		tm.waitExit(10 * time.Second)
	}
	percentiles(b, d, 0.50, 0.95)
}

// Idle RSS after the first frame, and CPU over 5 s idle and over 5 s of
// motion at 60 FPS (a task running while the model thinks, so only the
// activity bar, wordmark and wave move).
func BenchmarkIdleAndMotion(b *testing.B) {
	thinking := `{"version":1,"name":"think","models":["sim"],"steps":[
 {"id":"think","match":{"last_user":"think"},"respond":{"text":"done","first_delay_ms":60000}}]}`
	for i := 0; i < b.N; i++ {
		s := startSim(b, thinking)
		ws, env := workspace(b, s, "")
		tm := startTUI(b, ws, env, 120, 40, "--animation-fps", "60")
		tm.waitFor("connected", 0, 30*time.Second)
		pid := tm.cmd.Process.Pid
		time.Sleep(time.Second)
		_, rss := procStat(pid)
		var agentRSS int64
		for _, k := range childrenOf(pid) {
			_, r := procStat(k)
			agentRSS += r
		}
		t0, _ := procStat(pid)
		time.Sleep(5 * time.Second)
		t1, _ := procStat(pid)
		from := tm.size()
		tm.write("think\r")
		tm.waitFor("Working", from, 30*time.Second)
		time.Sleep(500 * time.Millisecond)
		m0, _ := procStat(pid)
		time.Sleep(5 * time.Second)
		m1, _ := procStat(pid)
		b.ReportMetric(float64(rss)/1024, "idle-rss-MiB")
		b.ReportMetric(float64(agentRSS)/1024, "agent-rss-MiB")
		b.ReportMetric(float64(t1-t0)*1000/clkTck/5000*100, "idle-cpu-%")
		b.ReportMetric(float64(m1-m0)*1000/clkTck/5000*100, "motion60-cpu-%")
		tm.write("\x03")
		tm.kill()
	}
}

// streamText is one turn's answer: ten 16-byte deltas (the simulator cuts
// text into 16-byte chunks), 10 ms apart.
const streamText = "streaming words in small pieces of text while the user types into the box ok and then a little more text so that one turn carries ten deltas in all ok"

// streamScenario approximates the PRD §49.2 load: each turn streams
// streamText and calls view twice (each call an operation that starts and
// finishes), so with the agent's own turn time about 30-50 deltas/s and
// 10+ tool events/s; the bench prints the rates it reached.
var streamScenario = fmt.Sprintf(`{"version":1,"name":"stream","models":["sim"],"steps":[
 {"id":"first","match":{"last_user":"stream"},"respond":{"text":%[1]q,"chunk_delay_ms":10,"tool_calls":[%[2]s]}},
 {"id":"more","times":5000,"match":{"tool_result":{"tool":"view"}},"respond":{"text":%[1]q,"chunk_delay_ms":10,"tool_calls":[%[2]s]}}]}`,
	streamText, `{"id":"c1","name":"view","arguments":{"path":"Cargo.toml"}},{"id":"c2","name":"view","arguments":{"path":"Cargo.lock"}}`)

// Input to screen under the stream: type one '~' (a byte neither the
// stream nor the UI chrome contains) and time until it is in the byte
// stream. The composer is cleared every 40 characters.
func BenchmarkInputLatencyUnderStream(b *testing.B) {
	for _, fps := range []int{60, 30, 15, 0} {
		b.Run(fmt.Sprintf("fps=%d", fps), func(b *testing.B) {
			s := startSim(b, streamScenario)
			ws, env := workspace(b, s, "max_turns = 10000\nmax_tool_calls = 10000\nmax_total_tokens = 1000000000\n")
			tm := startTUI(b, ws, env, 120, 40, "--animation-fps", strconv.Itoa(fps))
			_, from := tm.waitFor("connected", 0, 30*time.Second)
			tm.write("stream\r")
			tm.waitFor("streaming words", from, 30*time.Second)
			time.Sleep(500 * time.Millisecond)
			d := make([]time.Duration, 0, b.N)
			turns0, start := s.requests.Load(), time.Now()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if i > 0 && i%40 == 0 {
					tm.write("\x15") // Ctrl+U
					time.Sleep(30 * time.Millisecond)
				}
				from := tm.size()
				t0 := time.Now()
				tm.write("~")
				at, _, ok := tm.tryWait("~", from, 5*time.Second)
				if !ok {
					b.Fatalf("sample %d: the typed character never reached the screen", i)
				}
				d = append(d, at.Sub(t0))
				time.Sleep(5 * time.Millisecond)
			}
			b.StopTimer()
			turns := float64(s.requests.Load()-turns0) / time.Since(start).Seconds()
			// Each turn: its text deltas, and two view calls (started, finished).
			b.ReportMetric(float64((len(streamText)+15)/16)*turns, "deltas/s")
			b.ReportMetric(4*turns, "tool-events/s")
			percentiles(b, d, 0.50, 0.99)
			tm.kill()
		})
	}
}

// Crush by the same method, for the ratio: FLUZO_BENCH_CRUSH is its
// binary, FLUZO_BENCH_CRUSH_MARKER the text of its first usable frame. It
// runs in an empty HOME and directory with no provider configured and no
// network; the idle RSS is read 1 s after the first frame.
func BenchmarkCrushFirstFrame(b *testing.B) {
	crush, marker := os.Getenv("FLUZO_BENCH_CRUSH"), os.Getenv("FLUZO_BENCH_CRUSH_MARKER")
	if crush == "" || marker == "" {
		b.Fatal("set FLUZO_BENCH_CRUSH (the crush binary) and FLUZO_BENCH_CRUSH_MARKER (text of its first frame)")
	}
	d := make([]time.Duration, 0, b.N)
	var rss int64
	for i := 0; i < b.N; i++ {
		home, dir := b.TempDir(), b.TempDir()
		env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "XDG_CONFIG_HOME=" + home + "/.config",
			"XDG_DATA_HOME=" + home + "/.local/share", "TERM=xterm-256color", "COLORTERM=truecolor", "LANG=C.UTF-8",
			"HTTP_PROXY=http://127.0.0.1:9", "HTTPS_PROXY=http://127.0.0.1:9", "NO_PROXY="}
		tm := startTerm(b, 120, 40, env, dir, crush)
		at, _ := tm.waitFor(marker, 0, 30*time.Second)
		d = append(d, at.Sub(tm.start))
		if i == 0 {
			time.Sleep(time.Second)
			_, rss = procStat(tm.cmd.Process.Pid)
		}
		tm.kill()
	}
	b.ReportMetric(float64(rss)/1024, "idle-rss-MiB")
	percentiles(b, d, 0.50, 0.95)
}
