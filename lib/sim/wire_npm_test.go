package sim_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The official `openai` npm package (6.x) decodes the simulator's answers
// when node and npm are installed. The package is installed from the npm
// registry into a temporary directory; when npm is present but the install
// fails, the test fails and says why.
func TestOpenAINpmDecodesSimulator(t *testing.T) {
	node, errNode := exec.LookPath("node")
	npm, errNpm := exec.LookPath("npm")
	if errNode != nil || errNpm != nil {
		t.Log("openai npm wire check NOT RUN: node and npm are not both on PATH (install them to run it)")
		return
	}
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	install := exec.CommandContext(ctx, npm, "install", "--no-audit", "--no-fund", "--silent", "--prefix", dir, "openai@6")
	if out, err := install.CombinedOutput(); err != nil {
		t.Fatalf("npm is present but `npm install openai@6` failed (%v); the npm wire check needs registry access:\n%s", err, out)
	}
	script, err := os.ReadFile(filepath.Join("testdata", "openai_npm_check.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	// Node resolves "openai" from the script's directory, so it runs there.
	if err := os.WriteFile(filepath.Join(dir, "check.mjs"), script, 0o600); err != nil {
		t.Fatal(err)
	}
	srv := startScenario(t, `{"version":1,"models":["m"],"steps":[
	 {"id":"streamed","match":{"stream":true,"tools":["exec"]},"respond":{"text":"Running tests.",
	  "tool_calls":[{"id":"c1","name":"exec","arguments":{"cmd":"cargo test"}}],"fragment":{"size":4},
	  "usage":{"input":20,"output":6},"usage_in":"separate"}},
	 {"id":"plain","match":{"stream":false},"respond":{"text":"plain answer"}}]}`)
	run := exec.CommandContext(ctx, node, filepath.Join(dir, "check.mjs"), srv.BaseURL())
	run.Dir = dir
	run.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir}
	out, err := run.Output()
	if err != nil {
		msg := err.Error()
		if ee, ok := err.(*exec.ExitError); ok {
			msg += ": " + string(ee.Stderr)
		}
		t.Fatalf("node check failed: %s", msg)
	}
	var got struct {
		Content string `json:"content"`
		Finish  string `json:"finish"`
		Calls   []struct{ ID, Name, Args string }
		Done    int `json:"finishedCalls"`
		Usage   struct {
			Prompt     int `json:"prompt_tokens"`
			Completion int `json:"completion_tokens"`
		} `json:"usage"`
		Plain  string   `json:"plain"`
		Models []string `json:"models"`
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("node printed %q: %v", out, err)
	}
	if got.Content != "Running tests." || got.Finish != "tool_calls" || len(got.Calls) != 1 || got.Calls[0].ID != "c1" ||
		got.Calls[0].Name != "exec" || got.Calls[0].Args != `{"cmd":"cargo test"}` || got.Done != 1 {
		t.Fatalf("streamed answer as decoded by openai npm: %s", out)
	}
	if got.Usage.Prompt != 20 || got.Usage.Completion != 6 || got.Plain != "plain answer" || strings.Join(got.Models, ",") != "m" {
		t.Fatalf("decoded: %s", out)
	}
	if v := srv.Verify(); !v.OK {
		t.Fatalf("verdict %v", v.Problems)
	}
}
