package agent

import (
	"encoding/json"
	"os"
	"runtime"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/josecorral/fluzo/lib/store"
	"github.com/josecorral/fluzo/lib/timerslack"
)

// turnProbe writes one JSON line per turn — the process's own CPU, wall
// time, heap allocations and the store's durable commits and fsyncs,
// split between the model request and the tool calls — for scripts/bench
// agent. It is on only when FLUZO_BENCH_TURNS names a file; off, it is a
// nil pointer and costs one comparison per turn. Measured, never asserted.
type turnProbe struct {
	f       *os.File
	s       *store.Store
	samples []metrics.Sample
	turn    int
	at      probePoint
	req     probePoint
	// firstSend is when the first model request was handed to the
	// provider (Unix ns): the bench's start-to-first-request is this
	// minus the time it started the process.
	firstSend int64
}

// probePoint is one reading of the counters.
type probePoint struct {
	cpu     time.Duration
	wall    time.Time
	allocs  uint64
	durable store.DurableCounts
}

// turnSample is one turn's line.
type turnSample struct {
	Turn        int     `json:"turn"`
	CPUMicros   float64 `json:"cpu_us"`
	WallMicros  float64 `json:"wall_us"`
	Allocs      uint64  `json:"allocs"`
	Commits     int64   `json:"commits"`
	Fsyncs      int64   `json:"fsyncs"`
	ToolCalls   int     `json:"tool_calls"`
	ToolCommits int64   `json:"tool_commits"`
	ToolFsyncs  int64   `json:"tool_fsyncs"`
}

// newTurnProbe opens the probe when the bench asks for it.
func newTurnProbe(j journal) *turnProbe {
	path := os.Getenv("FLUZO_BENCH_TURNS")
	sj, ok := j.(*storeJournal)
	if path == "" || !ok {
		return nil
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return nil
	}
	return &turnProbe{f: f, s: sj.S, samples: []metrics.Sample{{Name: "/gc/heap/allocs:objects"}}}
}

func (p *turnProbe) read() probePoint {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	metrics.Read(p.samples)
	var allocs uint64
	if p.samples[0].Value.Kind() == metrics.KindUint64 {
		allocs = p.samples[0].Value.Uint64()
	}
	cpu := time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	return probePoint{cpu: cpu, wall: time.Now(), allocs: allocs, durable: p.s.Durable()}
}

// start marks a turn's beginning; requested marks the end of its model
// request (what follows is the tool calls).
func (p *turnProbe) start() {
	if p != nil {
		p.at = p.read()
	}
}

func (p *turnProbe) requested() {
	if p != nil {
		p.req = p.read()
	}
}

// sending marks a model request about to be sent; the first is kept.
func (p *turnProbe) sending() {
	if p != nil && p.firstSend == 0 {
		p.firstSend = time.Now().UnixNano()
	}
}

// end writes the turn's line.
func (p *turnProbe) end(toolCalls int) {
	if p == nil {
		return
	}
	now := p.read()
	p.turn++
	all, tools := now.durable.Sub(p.at.durable), now.durable.Sub(p.req.durable)
	line, _ := json.Marshal(turnSample{Turn: p.turn, CPUMicros: float64(now.cpu-p.at.cpu) / 1e3, WallMicros: float64(now.wall.Sub(p.at.wall)) / 1e3,
		Allocs: now.allocs - p.at.allocs, Commits: all.Commits, Fsyncs: all.Fsyncs, ToolCalls: toolCalls, ToolCommits: tools.Commits, ToolFsyncs: tools.Fsyncs})
	p.f.Write(append(line, '\n'))
}

// startPhases are the moments (Unix ns) a process reached the steps on
// its way to the first request — owner open, backend up, baseline,
// task recorded, context built, start recorded — kept only when the bench
// probe is on, so scripts/bench agent can say where the start goes.
var startPhases struct {
	mu sync.Mutex
	at []phaseMark
}

type phaseMark struct {
	Phase  string `json:"phase"`
	UnixNS int64  `json:"unix_ns"`
}

// markPhase records that the process reached phase (first time only).
func markPhase(phase string) {
	if os.Getenv("FLUZO_BENCH_TURNS") == "" {
		return
	}
	now := time.Now().UnixNano()
	startPhases.mu.Lock()
	defer startPhases.mu.Unlock()
	for _, m := range startPhases.at {
		if m.Phase == phase {
			return
		}
	}
	startPhases.at = append(startPhases.at, phaseMark{phase, now})
}

// MarkPhase is markPhase for the command that owns the process (its own
// steps before the owner exists).
func MarkPhase(phase string) { markPhase(phase) }

func phasesSoFar() []phaseMark {
	startPhases.mu.Lock()
	defer startPhases.mu.Unlock()
	return append([]phaseMark(nil), startPhases.at...)
}

// close writes the process line (own CPU and peak RSS so far) and closes
// the file.
func (p *turnProbe) close() {
	if p == nil {
		return
	}
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	anon, file := residentNow()
	slack, _ := timerslack.Current()
	line, _ := json.Marshal(map[string]any{"process": true, "timer_slack_ns": slack, "cpu_us": float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e3, "max_rss_kib": ru.Maxrss,
		"rss_anon_kib": anon, "rss_file_kib": file,
		"first_request_unix_ns": p.firstSend, "gomaxprocs": runtime.GOMAXPROCS(0), "phases": phasesSoFar()})
	p.f.Write(append(line, '\n'))
	p.f.Close()
}

// residentNow reads the process's resident memory split into anonymous
// (what it allocated) and file-backed (mostly its own binary's pages,
// which the kernel maps a whole page-cache folio at a time), in KiB; -1
// when /proc does not say.
func residentNow() (anon, file int64) {
	anon, file = -1, -1
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return anon, file
	}
	for _, line := range strings.Split(string(b), "\n") {
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		n, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
		if err != nil {
			continue
		}
		switch k {
		case "RssAnon":
			anon = n
		case "RssFile":
			file = n
		}
	}
	return anon, file
}
