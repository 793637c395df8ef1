// Package sim is the fluzo-sim command: the deterministic model simulator
// (lib/sim) as a binary, for scripts, black-box tests and demos.
package sim

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/josecorral/fluzo/lib/cli/runner"
	"github.com/josecorral/fluzo/lib/core"
	libsim "github.com/josecorral/fluzo/lib/sim"
	"github.com/urfave/cli/v3"
)

// Command returns the fluzo-sim command tree.
func Command() *cli.Command {
	return &cli.Command{
		Name:    "fluzo-sim",
		Usage:   "deterministic simulator of OpenAI-compatible and Laya model endpoints",
		Version: core.Version,
		Description: `fluzo-sim answers HTTP requests on loopback the way an OpenAI-compatible
server (llama.cpp, llama-swap, Ollama, vLLM) and a Laya decision server would,
following a versioned scenario: an ordered list of expected requests and the
scripted answer to each. A request no step expects gets an error answer and
fails the scenario; so does a required step left unconsumed. The simulator
never edits files or runs tools.`,
		Commands: []*cli.Command{serveCommand(), verifyCommand(), checkCommand()},
	}
}

// Main runs fluzo-sim.
func Main() int { return runner.Main(Command()) }

func serveCommand() *cli.Command {
	return &cli.Command{
		Name:  "serve",
		Usage: "serve a scenario until interrupted, logging one JSONL record per request",
		Description: `Prints {"v":1,"type":"listening","url":...,"base_url":...,"redirect_target":...}
as the first stdout line, then one {"type":"request"} record per request. On
SIGINT, SIGTERM or POST /_sim/shutdown it prints the {"type":"verdict"} record
and exits 0 when the scenario passed, 1 when it failed.`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "scenario", Usage: "scenario `FILE` (JSON, see share/scenarios/README.md)", Required: true},
			&cli.StringFlag{Name: "addr", Usage: "loopback listen `ADDRESS`", Value: "127.0.0.1:0"},
		},
		Action: serve,
	}
}

func serve(ctx context.Context, c *cli.Command) error {
	sc, err := libsim.Load(c.String("scenario"))
	if err != nil {
		return err
	}
	out := &lockedWriter{w: c.Root().Writer}
	s, err := libsim.StartWith(ctx, sc, libsim.Options{Addr: c.String("addr"), Log: out})
	if err != nil {
		return err
	}
	defer s.Close()
	writeLine(out, listening{V: 1, Type: "listening", URL: s.URL(), BaseURL: s.BaseURL(),
		RedirectTarget: s.TargetURL(), Scenario: sc.Name})
	select {
	case <-ctx.Done():
	case <-s.Done():
	}
	s.Close()
	return verdictResult(out, s.Verify())
}

// verdictResult prints v and turns a failed verdict into exit 1.
func verdictResult(w io.Writer, v libsim.Verdict) error {
	writeLine(w, v)
	if v.OK {
		return nil
	}
	return core.Errorf(core.CodeFailed, "the scenario failed: %s", strings.Join(v.Problems, "; ")).
		WithHint("compare the expected steps with the observed requests in the verdict record")
}

func verifyCommand() *cli.Command {
	return &cli.Command{
		Name:  "verify",
		Usage: "print the verdict of a running simulator (exit 0 passed, 1 failed, 12 simulator unreachable)",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "url", Usage: "the simulator's `URL` from its listening record", Required: true},
			&cli.BoolFlag{Name: "stop", Usage: "also shut the simulator down"},
		},
		Action: verify,
	}
}

func verify(ctx context.Context, c *cli.Command) error {
	client := &http.Client{
		Timeout:       10 * time.Second,
		Transport:     &http.Transport{Proxy: nil},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	method, path := http.MethodGet, "/_sim/verdict"
	if c.Bool("stop") {
		method, path = http.MethodPost, "/_sim/shutdown"
	}
	req, err := http.NewRequestWithContext(ctx, method, strings.TrimRight(c.String("url"), "/")+path, nil)
	if err != nil {
		return runner.Usage(c, "--url %q is not a valid URL", c.String("url"))
	}
	resp, err := client.Do(req)
	if err != nil {
		// Unreachable is not a failed verdict: nothing was judged, so it
		// gets its own status (provider_error, exit 12) and names why.
		msg := "cannot reach the simulator at " + c.String("url")
		if why := core.DescribeSystemError(err); why != "" {
			msg += ": " + why
		}
		return core.Wrap(err, core.CodeProviderError, msg).
			WithHint("is fluzo-sim serve still running? pass the url printed in its listening record")
	}
	defer resp.Body.Close()
	var v libsim.Verdict
	if resp.StatusCode != http.StatusOK || json.NewDecoder(resp.Body).Decode(&v) != nil || v.Type != "verdict" {
		return core.Errorf(core.CodeFailed, "%s did not answer with a simulator verdict (HTTP %d)", c.String("url"), resp.StatusCode).
			WithHint("pass the url printed in the simulator's listening record")
	}
	return verdictResult(c.Root().Writer, v)
}

func checkCommand() *cli.Command {
	return &cli.Command{
		Name:      "check",
		Usage:     "validate a scenario file without serving it",
		ArgsUsage: "FILE",
		Action: func(_ context.Context, c *cli.Command) error {
			if c.Args().Len() != 1 {
				return runner.Usage(c, "check takes exactly one scenario file")
			}
			sc, err := libsim.Check(c.Args().First())
			if err != nil {
				return err
			}
			writeLine(c.Root().Writer, scenarioRecord{V: 1, Type: "scenario", Name: sc.Name,
				Version: sc.Version, Steps: len(sc.Steps), Models: sc.Models})
			return nil
		},
	}
}

// scenarioRecord is what check prints for a valid scenario.
type scenarioRecord struct {
	V       int      `json:"v"`
	Type    string   `json:"type"`
	Name    string   `json:"name"`
	Version int      `json:"version"`
	Steps   int      `json:"steps"`
	Models  []string `json:"models"`
}

// listening is the first stdout line of serve.
type listening struct {
	V              int    `json:"v"`
	Type           string `json:"type"`
	URL            string `json:"url"`
	BaseURL        string `json:"base_url"`
	RedirectTarget string `json:"redirect_target"`
	Scenario       string `json:"scenario,omitempty"`
}

type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func writeLine(w io.Writer, v any) {
	raw, _ := json.Marshal(v)
	fmt.Fprintf(w, "%s\n", raw)
}
