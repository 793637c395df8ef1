package tui

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/josecorral/fluzo/lib/demo"
	"github.com/josecorral/fluzo/lib/sim"
	"golang.org/x/sys/unix"
)

// PTY benchmarks of the real fluzo-tui (scripts/bench tui): it runs on a
// pseudo-terminal of its own against fluzo-agent serve and an in-process
// fluzo-sim, and the figures are what a person's terminal would see.
// Nothing is asserted. The toolkit must be on PATH (scripts/bench puts it
// there).

type pty struct {
	master *os.File
	cmd    *exec.Cmd
	mu     sync.Mutex
	cond   *sync.Cond
	out    []byte
	done   bool
}

func startPTY(b *testing.B, dir string, args ...string) *pty {
	b.Helper()
	tuiPath, err := exec.LookPath("fluzo-tui")
	if err != nil {
		b.Fatalf("fluzo-tui is not on PATH: run through scripts/bench tui (%v)", err)
	}
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		b.Fatal(err)
	}
	if err := unix.IoctlSetPointerInt(int(m.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		b.Fatal(err)
	}
	n, err := unix.IoctlGetInt(int(m.Fd()), unix.TIOCGPTN)
	if err != nil {
		b.Fatal(err)
	}
	s, err := os.OpenFile("/dev/pts/"+strconv.Itoa(n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		b.Fatal(err)
	}
	unix.IoctlSetWinsize(int(s.Fd()), unix.TIOCSWINSZ, &unix.Winsize{Row: 40, Col: 120})
	cmd := exec.Command(tuiPath, append([]string{"--workspace", dir}, args...)...)
	cmd.Env = append(os.Environ(), "TERM=xterm-256color", "COLORTERM=truecolor")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = s, s, s
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	s.Close()
	p := &pty{master: m, cmd: cmd}
	p.cond = sync.NewCond(&p.mu)
	go func() {
		buf := make([]byte, 64<<10)
		for {
			n, err := m.Read(buf)
			p.mu.Lock()
			p.out = append(p.out, buf[:n]...)
			if err != nil {
				p.done = true
			}
			p.cond.Broadcast()
			p.mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	return p
}

// waitFor waits until the output after offset from contains s and returns
// the offset just past it.
func (p *pty) waitFor(from int, s string, timeout time.Duration) (int, bool) {
	deadline := time.Now().Add(timeout)
	timer := time.AfterFunc(timeout, func() { p.mu.Lock(); p.cond.Broadcast(); p.mu.Unlock() })
	defer timer.Stop()
	p.mu.Lock()
	defer p.mu.Unlock()
	for {
		if i := bytes.Index(p.out[min(from, len(p.out)):], []byte(s)); i >= 0 {
			return from + i + len(s), true
		}
		if p.done || time.Now().After(deadline) {
			return len(p.out), false
		}
		p.cond.Wait()
	}
}

func (p *pty) len() int { p.mu.Lock(); defer p.mu.Unlock(); return len(p.out) }

func (p *pty) stop() {
	p.master.Write([]byte{3}) // Ctrl+C: cancel the task, then quit
	time.Sleep(300 * time.Millisecond)
	p.master.Write([]byte{3})
	done := make(chan struct{})
	go func() { p.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		p.cmd.Process.Kill()
		<-done
	}
	p.master.Close()
}

// workspace prepares the bundled crate against a simulator streaming a
// long answer at 50 deltas/s (16-byte chunks every 20 ms), the §49.2 load.
func workspace(b *testing.B) string {
	b.Helper()
	words := strings.Repeat("streaming words for the latency benchmark ", 600)
	sc := map[string]any{"version": 1, "name": "bench", "models": []string{"sim"}, "steps": []any{
		map[string]any{"id": "stream", "match": map[string]any{"messages": 2}, "times": 100,
			"respond": map[string]any{"text": words, "chunk_delay_ms": 20}},
	}}
	raw, _ := json.Marshal(sc)
	path := filepath.Join(b.TempDir(), "bench.json")
	os.WriteFile(path, raw, 0o644)
	s, err := sim.Load(path)
	if err != nil {
		b.Fatal(err)
	}
	srv, err := sim.Start(context.Background(), s)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { srv.Close() })
	dir := filepath.Join(b.TempDir(), "ws")
	if err := demo.PrepareWorkspace(context.Background(), dir, map[string]string{".fluzo": demo.Config(srv.BaseURL())}); err != nil {
		b.Fatal(err)
	}
	// Consent in a state directory of the benchmark's own, never the user's.
	b.Setenv("XDG_STATE_HOME", b.TempDir())
	if out, err := exec.Command("fluzo-admit", "-C", dir, "consent", "grant", "--yes").CombinedOutput(); err != nil {
		b.Fatalf("fluzo-admit consent grant (run through scripts/bench tui): %v\n%s", err, out)
	}
	return dir
}

func percentiles(b *testing.B, name string, d []time.Duration) {
	if len(d) == 0 {
		b.Logf("%s: no samples", name)
		return
	}
	sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
	at := func(p float64) float64 { return float64(d[int(p*float64(len(d)-1))]) / 1e6 }
	b.ReportMetric(at(0.5), name+"-p50-ms")
	b.ReportMetric(at(0.95), name+"-p95-ms")
	b.ReportMetric(at(0.99), name+"-p99-ms")
	b.ReportMetric(float64(len(d)), name+"-samples")
}

// BenchmarkPTYFirstFrame: launch to the first usable frame (connected,
// composer ready), then idle RSS and idle CPU of the running process.
func BenchmarkPTYFirstFrame(b *testing.B) {
	dir := workspace(b)
	var d, paint []time.Duration
	var rss, cpu []float64
	for i := 0; i < b.N; i++ {
		s := time.Now()
		p := startPTY(b, dir)
		// First paint: the loading frame, before serve has answered.
		if _, ok := p.waitFor(0, "Connecting", 20*time.Second); ok {
			paint = append(paint, time.Since(s))
		}
		if _, ok := p.waitFor(0, "connected", 20*time.Second); !ok {
			p.stop()
			b.Fatalf("no usable frame:\n%q", p.out)
		}
		d = append(d, time.Since(s))
		if i == 0 {
			time.Sleep(time.Second)
			rss = append(rss, rssKiB(p.cmd.Process.Pid)/1024)
			t0 := cpuTicks(p.cmd.Process.Pid)
			time.Sleep(3 * time.Second)
			cpu = append(cpu, float64(cpuTicks(p.cmd.Process.Pid)-t0)/3) // ticks/s (100 = one core)
		}
		p.stop()
	}
	percentiles(b, "firstpaint", paint)
	percentiles(b, "firstframe", d)
	if len(rss) > 0 {
		b.ReportMetric(rss[0], "idle-RSS-MiB")
		b.ReportMetric(cpu[0], "idle-CPU-%core")
	}
}

// BenchmarkPTYInputUnderStream: keystroke to its cell on the PTY while the
// model streams 50 deltas/s, at each animation rate. b.N keys per rate.
func BenchmarkPTYInputUnderStream(b *testing.B) {
	dir := workspace(b)
	for _, fps := range []int{60, 30, 15, 0} {
		b.Run(fmt.Sprintf("fps%d", fps), func(b *testing.B) {
			p := startPTY(b, dir, "--animation-fps", strconv.Itoa(fps))
			defer p.stop()
			at, ok := p.waitFor(0, "connected", 20*time.Second)
			if !ok {
				b.Fatalf("no usable frame")
			}
			p.master.Write([]byte("stream please\r"))
			if _, ok = p.waitFor(at, "benchmark", 30*time.Second); !ok {
				b.Fatalf("the stream never started:\n%s", stripCSI(p.out[max(0, len(p.out)-3000):]))
			}
			time.Sleep(200 * time.Millisecond)
			var d []time.Duration
			var motion float64
			t0 := cpuTicks(p.cmd.Process.Pid)
			start := time.Now()
			glyphs := []string{"字", "文"}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				g := glyphs[i%2]
				from := p.len()
				s := time.Now()
				p.master.Write([]byte(g))
				if _, ok := p.waitFor(from, g, 2*time.Second); !ok {
					b.Fatalf("key %d never reached the screen", i)
				}
				d = append(d, time.Since(s))
				time.Sleep(5 * time.Millisecond)
			}
			b.StopTimer()
			motion = float64(cpuTicks(p.cmd.Process.Pid)-t0) / time.Since(start).Seconds()
			percentiles(b, "input", d)
			b.ReportMetric(motion, "CPU-%core")
		})
	}
}

func rssKiB(pid int) float64 {
	b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "VmRSS:") {
			f := strings.Fields(l)
			v, _ := strconv.ParseFloat(f[1], 64)
			return v
		}
	}
	return 0
}

func cpuTicks(pid int) int64 {
	b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	s := string(b)
	if i := strings.LastIndexByte(s, ')'); i >= 0 {
		f := strings.Fields(s[i+1:])
		if len(f) > 13 {
			u, _ := strconv.ParseInt(f[11], 10, 64)
			k, _ := strconv.ParseInt(f[12], 10, 64)
			return u + k
		}
	}
	return 0
}

// stripCSI drops escape sequences so a failure shows the text written.
func stripCSI(b []byte) string {
	var out []byte
	for i := 0; i < len(b); i++ {
		if b[i] == 0x1b && i+1 < len(b) && b[i+1] == '[' {
			j := i + 2
			for j < len(b) && (b[j] < 0x40 || b[j] > 0x7e) {
				j++
			}
			i = j
			out = append(out, ' ')
			continue
		}
		out = append(out, b[i])
	}
	return string(out)
}
