package demo

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/share"
)

// Verdict is the part of fluzo-sim's verdict record the demo reports:
// whether the requests the simulator saw were exactly the scenario's.
type Verdict struct {
	OK       bool     `json:"ok"`
	Requests int      `json:"requests"`
	Problems []string `json:"problems,omitempty"`
}

// Simulator is a running "fluzo-sim serve" child process.
type Simulator struct {
	// BaseURL is the OpenAI-compatible base URL (…/v1) a model entry
	// points at; URL is the simulator's root.
	BaseURL, URL string
	cmd          *exec.Cmd
	verdict      chan Verdict
	stopOnce     sync.Once
	stopped      Verdict
	stopErr      error
}

// startTimeout bounds the wait for the listening record.
const startTimeout = 30 * time.Second

// StartSimulator runs "SIMPATH serve" with the bundled demo scenario and
// returns once the simulator is listening on loopback.
func StartSimulator(ctx context.Context, simPath string) (*Simulator, error) {
	raw, err := fs.ReadFile(share.Scenarios, share.DemoScenario)
	if err != nil {
		return nil, core.Wrap(err, core.CodeInternal, "the demo scenario is missing from this build")
	}
	return startSimulator(ctx, simPath, raw)
}

func startSimulator(ctx context.Context, simPath string, scenario []byte) (*Simulator, error) {
	file, err := writeScenario(scenario)
	if err != nil {
		return nil, err
	}
	// fluzo-sim reads the scenario before it prints its listening record.
	defer os.Remove(file)
	cmd := exec.Command(simPath, "serve", "--scenario", file)
	cmd.Args[0] = "fluzo-sim"
	// Its stderr matters only when it cannot start; once it serves, the
	// demo reports the verdict itself.
	errs := &tailBuffer{max: 4 << 10}
	cmd.Stderr = errs
	// Its own process group keeps the terminal's Ctrl-C for the agent (the
	// demo stops the simulator after the agent has finished); the parent's
	// death ends it so that it never outlives a killed demo.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGTERM}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, core.Wrap(err, core.CodeFailed, "cannot start the simulator")
	}
	if err := cmd.Start(); err != nil {
		return nil, core.Wrap(err, core.CodeFailed, "cannot start the simulator "+simPath).
			WithHint("install fluzo-sim beside fluzo or on PATH")
	}
	s := &Simulator{cmd: cmd, verdict: make(chan Verdict, 1)}
	listening := make(chan listeningRecord, 1)
	go s.read(out, listening)
	timer := time.NewTimer(startTimeout)
	defer timer.Stop()
	select {
	case rec, ok := <-listening:
		if ok && rec.BaseURL != "" {
			s.BaseURL, s.URL = rec.BaseURL, rec.URL
			return s, nil
		}
	case <-ctx.Done():
	case <-timer.C:
	}
	s.kill()
	for range s.verdict {
	}
	_ = s.cmd.Wait()
	return nil, core.Errorf(core.CodeFailed, "the simulator %s did not start listening: %s", simPath, strings.TrimSpace(errs.String())).
		WithHint("check that fluzo-sim is the same version as fluzo (fluzo-sim --version)")
}

func writeScenario(scenario []byte) (string, error) {
	f, err := os.CreateTemp("", "fluzo-demo-scenario-*.json")
	if err != nil {
		return "", core.Wrap(err, core.CodeFailed, "cannot write the demo scenario").WithHint("check TMPDIR and free space")
	}
	_, werr := f.Write(scenario)
	if err := errors.Join(werr, f.Close()); err != nil {
		os.Remove(f.Name())
		return "", core.Wrap(err, core.CodeFailed, "cannot write the demo scenario "+f.Name()).WithHint("check TMPDIR and free space")
	}
	return f.Name(), nil
}

type listeningRecord struct {
	Type    string `json:"type"`
	URL     string `json:"url"`
	BaseURL string `json:"base_url"`
}

// read drains the simulator's stdout (one record per request, which
// nobody needs here, must not fill the pipe), passes on the listening
// record and keeps the verdict record printed on shutdown.
func (s *Simulator) read(out io.Reader, listening chan<- listeningRecord) {
	sc := bufio.NewScanner(out)
	sc.Buffer(make([]byte, 64*1024), 16<<20)
	first := true
	var last *Verdict
	for sc.Scan() {
		line := sc.Bytes()
		if first {
			first = false
			var rec listeningRecord
			if json.Unmarshal(line, &rec) == nil && rec.Type == "listening" {
				listening <- rec
			}
			close(listening)
			continue
		}
		var rec struct {
			Type string `json:"type"`
			Verdict
		}
		if json.Unmarshal(line, &rec) == nil && rec.Type == "verdict" {
			v := rec.Verdict
			last = &v
		}
	}
	if first {
		close(listening)
	}
	if last != nil {
		s.verdict <- *last
	}
	close(s.verdict)
}

// Stop shuts the simulator down (SIGTERM: it prints its verdict and
// exits) and returns its verdict on every request it saw. It is safe to
// call more than once.
func (s *Simulator) Stop() (Verdict, error) {
	s.stopOnce.Do(func() {
		_ = s.cmd.Process.Signal(syscall.SIGTERM)
		timer := time.AfterFunc(startTimeout, s.kill)
		defer timer.Stop()
		v, ok := <-s.verdict
		_ = s.cmd.Wait()
		if !ok {
			s.stopErr = core.Errorf(core.CodeFailed, "the simulator stopped without a verdict").
				WithHint("run 'fluzo-sim serve' by hand to see why it stopped")
			return
		}
		s.stopped = v
	})
	return s.stopped, s.stopErr
}

func (s *Simulator) kill() {
	_ = syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL)
}

// Summary is the verdict's problems in one line.
func (v Verdict) Summary() string { return strings.Join(v.Problems, "; ") }

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func (b *tailBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf = append(b.buf, p...)
	if over := len(b.buf) - b.max; over > 0 {
		b.buf = append(b.buf[:0], b.buf[over:]...)
	}
	return len(p), nil
}

func (b *tailBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return string(b.buf)
}
