package sim

import (
	"context"
	"encoding/json"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The curl sessions in share/scenarios/README.md run as written: each sh
// block that starts "fluzo-sim serve --scenario FILE --addr ADDR &" is
// served in process (on a free port substituted for ADDR's), its curl
// lines run through bash and curl, and the block's verify must pass.
func TestScenarioReadmeCurlSessions(t *testing.T) {
	curl, err := exec.LookPath("curl")
	if err != nil {
		t.Log("README curl check NOT RUN: curl is not on PATH")
		return
	}
	readme, err := os.ReadFile(filepath.Join("..", "..", "share", "scenarios", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	serveLine := regexp.MustCompile(`^fluzo-sim serve --scenario (\S+) --addr (127\.0\.0\.1:\d+) &$`)
	blocks := regexp.MustCompile("(?s)```sh\n(.*?)```").FindAllStringSubmatch(string(readme), -1)
	ran := 0
	for _, b := range blocks {
		lines := strings.Split(strings.TrimSpace(b[1]), "\n")
		m := serveLine.FindStringSubmatch(lines[0])
		if m == nil {
			continue
		}
		ran++
		t.Run(filepath.Base(m[1]), func(t *testing.T) {
			sc, err := Load(filepath.Join("..", "..", m[1]))
			if err != nil {
				t.Fatal(err)
			}
			s, err := StartWith(context.Background(), sc, Options{Addr: "127.0.0.1:0"})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			_, port, _ := net.SplitHostPort(strings.TrimPrefix(s.URL(), "http://"))
			var script []string
			verified := false
			for _, l := range lines[1:] {
				if strings.HasPrefix(l, "fluzo-sim verify --url http://"+m[2]) {
					verified = true
					continue
				}
				script = append(script, strings.ReplaceAll(l, m[2], "127.0.0.1:"+port))
			}
			cmd := exec.Command("bash", "-euo", "pipefail", "-c", strings.Join(script, "\n"))
			cmd.Env = []string{"PATH=" + filepath.Dir(curl) + ":/usr/bin:/bin"}
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("README session failed: %v\n%s", err, out)
			}
			if !verified {
				t.Fatalf("the README session does not end with fluzo-sim verify")
			}
			if v := s.Verify(); !v.OK {
				t.Fatalf("README session's verdict: %v", v.Problems)
			}
		})
	}
	if ran < 3 {
		t.Fatalf("found %d runnable curl sessions in the README, want at least 3", ran)
	}
}

// Every scenario shown in share/scenarios/README.md passes fluzo-sim check
// as written, and the tool_result example of the match table matches the
// tool turn it describes (a failed cargo test run, as Fluzo's exec reports
// it) and not a passing one.
func TestScenarioReadmeExamplesAsWritten(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "..", "share", "scenarios", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	blocks := regexp.MustCompile("(?s)```json\n(.*?)```").FindAllStringSubmatch(string(readme), -1)
	if len(blocks) < 2 {
		t.Fatalf("found %d json examples, want at least 2", len(blocks))
	}
	for i, b := range blocks {
		sc, problems, err := parse("README example", []byte(b[1]))
		if err != nil {
			t.Fatalf("example %d: %v", i+1, err)
		}
		if all := append(problems, sc.lint()...); len(all) > 0 {
			t.Errorf("example %d (%s): %v", i+1, sc.Name, all)
		}
	}
	row := regexp.MustCompile("(?m)^\\| `tool_result` \\|.*`(\\{\"tool\":\"exec\"[^`]*\\})` matches a failed `cargo test` run").FindStringSubmatch(string(readme))
	if row == nil {
		t.Fatal("the tool_result example is missing from the match table")
	}
	var tr ToolResult
	if err := json.Unmarshal([]byte(row[1]), &tr); err != nil {
		t.Fatalf("the tool_result example is not valid JSON: %v", err)
	}
	failed := &toolTurn{name: "exec", args: `{"argv":["cargo","test"]}`, content: `{"exit_code":101,"stdout":"test tests::adds ... FAILED\n"}`}
	if m := tr.mismatch(failed); len(m) > 0 {
		t.Errorf("the example does not match a failed cargo test: %v", m)
	}
	passed := &toolTurn{name: "exec", args: `{"argv":["cargo","test"]}`, content: `{"exit_code":0,"stdout":"test result: ok"}`}
	if len(tr.mismatch(passed)) == 0 {
		t.Error("the example also matches a passing cargo test")
	}
}
