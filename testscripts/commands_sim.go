package testscripts

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

func init() {
	register("simserve", simServe)
	register("simhttp", simHTTP)
	register("simwait", simWait)
}

// simProc is a fluzo-sim serve process started by a script.
type simProc struct {
	cmd  *exec.Cmd
	out  bytes.Buffer
	done chan struct{}
}

var (
	simMu    sync.Mutex
	simProcs = map[*testscript.TestScript]*simProc{}
)

// simserve FILE [flags...] starts "fluzo-sim serve --scenario FILE" in the
// background, reads its listening record and sets $SIM_URL, $SIM_BASE and
// $SIM_TARGET. The rest of its stdout is kept for simwait.
func simServe(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 1 {
		ts.Fatalf("usage: simserve SCENARIO [flags...]")
	}
	bin := lookPathIn(ts.Getenv("PATH"), "fluzo-sim")
	if bin == "" {
		ts.Fatalf("simserve: fluzo-sim is not on the script's PATH")
	}
	cmd := exec.Command(bin, append([]string{"serve", "--scenario", ts.MkAbs(args[0])}, args[1:]...)...)
	cmd.Dir = ts.Getenv("WORK")
	cmd.Env = []string{"PATH=" + ts.Getenv("PATH"), "HOME=" + ts.Getenv("HOME")}
	stdout, err := cmd.StdoutPipe()
	ts.Check(err)
	cmd.Stderr = io.Discard
	ts.Check(cmd.Start())
	p := &simProc{cmd: cmd, done: make(chan struct{})}
	ts.Defer(func() {
		select {
		case <-p.done:
		default:
			cmd.Process.Kill()
			<-p.done
		}
	})
	r := bufio.NewReader(stdout)
	first, err := r.ReadString('\n')
	if err != nil {
		ts.Fatalf("simserve: no listening record: %v", err)
	}
	var raw map[string]any
	if err := json.Unmarshal([]byte(first), &raw); err != nil || raw["type"] != "listening" {
		ts.Fatalf("simserve: first line is not a listening record: %q", first)
	}
	str := func(k string) string { v, _ := raw[k].(string); return v }
	ts.Setenv("SIM_URL", str("url"))
	ts.Setenv("SIM_BASE", str("base_url"))
	ts.Setenv("SIM_TARGET", str("redirect_target"))
	p.out.WriteString(first)
	go func() {
		io.Copy(&p.out, r)
		cmd.Wait()
		close(p.done)
	}()
	simMu.Lock()
	simProcs[ts] = p
	simMu.Unlock()
}

// simwait CODE [term] waits for the simulator started by simserve to
// exit (after sending it SIGTERM with "term"), asserts its exit status and
// writes its stdout to $WORK/sim.out.
func simWait(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 1 || len(args) > 2 || (len(args) == 2 && args[1] != "term") {
		ts.Fatalf("usage: simwait EXITCODE [term]")
	}
	want, err := strconv.Atoi(args[0])
	ts.Check(err)
	simMu.Lock()
	p := simProcs[ts]
	delete(simProcs, ts)
	simMu.Unlock()
	if p == nil {
		ts.Fatalf("simwait: no simulator was started")
	}
	if len(args) == 2 {
		ts.Check(p.cmd.Process.Signal(syscall.SIGTERM))
	}
	select {
	case <-p.done:
	case <-time.After(30 * time.Second):
		ts.Fatalf("simwait: the simulator did not exit")
	}
	ts.Check(os.WriteFile(filepath.Join(ts.Getenv("WORK"), "sim.out"), p.out.Bytes(), 0o600))
	if got := p.cmd.ProcessState.ExitCode(); got != want {
		ts.Fatalf("fluzo-sim serve exited %d, want %d", got, want)
	}
}

// simhttp METHOD URL BODYFILE|- OUTFILE sends one request the way curl
// would (no redirects followed, no proxy) and writes "status N" and the
// body to OUTFILE.
func simHTTP(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 4 {
		ts.Fatalf("usage: simhttp METHOD URL BODYFILE|- OUTFILE")
	}
	var body io.Reader
	if args[2] != "-" {
		data, err := os.ReadFile(ts.MkAbs(args[2]))
		ts.Check(err)
		body = bytes.NewReader(data)
	}
	req, err := http.NewRequest(args[0], args[1], body)
	ts.Check(err)
	req.Header.Set("Content-Type", "application/json")
	client := &http.Client{
		Timeout:       30 * time.Second,
		Transport:     &http.Transport{Proxy: nil},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	resp, err := client.Do(req)
	ts.Check(err)
	defer resp.Body.Close()
	// A cut connection is a scripted outcome, not a failure of the script:
	// it is written as a "cut" line after what arrived.
	data, err := io.ReadAll(resp.Body)
	out := "status " + strconv.Itoa(resp.StatusCode) + "\n"
	if loc := resp.Header.Get("Location"); loc != "" {
		out += "location " + loc + "\n"
	}
	if err != nil {
		data = append(data, "\ncut: the connection ended early\n"...)
	}
	ts.Check(os.WriteFile(ts.MkAbs(args[3]), []byte(out+string(data)), 0o600))
}

func lookPathIn(path, name string) string {
	for _, dir := range filepath.SplitList(path) {
		p := filepath.Join(dir, name)
		if st, err := os.Stat(p); err == nil && !st.IsDir() && st.Mode()&0o111 != 0 {
			return p
		}
	}
	return ""
}
