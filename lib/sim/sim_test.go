package sim

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
)

func start(t *testing.T, scenario string) (*Server, *bytes.Buffer) {
	t.Helper()
	sc, err := Parse("test.json", []byte(scenario))
	if err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	s, err := StartWith(context.Background(), sc, Options{Log: &syncWriter{w: &log}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, &log
}

type syncWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}

func post(t *testing.T, url, body string) (int, string) {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

const twoTurns = `{"version":1,"name":"t","models":["m","laya"],"steps":[
 {"id":"run","match":{"model":"m","tools":["exec"],"messages":1},
  "respond":{"tool_calls":[{"id":"c1","name":"exec","arguments":{"cmd":"cargo test"}}]}},
 {"id":"fix","match":{"model":"m","tool_result":{"tool":"exec","arguments":"cargo test","content":"FAILED"}},
  "respond":{"text":"fixed"}}]}`

const firstTurn = `{"model":"m","messages":[{"role":"user","content":"fix it"}],"tools":[{"type":"function","function":{"name":"exec"}}]}`

const secondTurn = `{"model":"m","messages":[{"role":"user","content":"fix it"},
 {"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"exec","arguments":"{\"cmd\":\"cargo test\"}"}}]},
 {"role":"tool","tool_call_id":"c1","content":"test result: FAILED. 0 passed; 1 failed"}]}`

func TestScenarioConsumedInOrderPasses(t *testing.T) {
	s, log := start(t, twoTurns)
	if code, body := post(t, s.BaseURL()+"/chat/completions", firstTurn); code != 200 || !strings.Contains(body, `"name":"exec"`) {
		t.Fatalf("first turn: %d %s", code, body)
	}
	if code, body := post(t, s.BaseURL()+"/chat/completions", secondTurn); code != 200 || !strings.Contains(body, `"fixed"`) {
		t.Fatalf("second turn: %d %s", code, body)
	}
	v := s.Verify()
	if !v.OK || v.Requests != 2 || v.MaxConcurrent["m"] != 1 {
		t.Fatalf("verdict %+v", v)
	}
	lines := strings.Split(strings.TrimSpace(log.String()), "\n")
	var rec record
	if len(lines) != 2 || json.Unmarshal([]byte(lines[1]), &rec) != nil || rec.Step != "fix" || rec.Status != 200 || rec.Type != "request" {
		t.Fatalf("log %q", log.String())
	}
}

func TestUnexpectedRequestFailsWithExpectedVersusObserved(t *testing.T) {
	s, _ := start(t, twoTurns)
	code, body := post(t, s.BaseURL()+"/chat/completions", secondTurn)
	if code != 400 || !strings.Contains(body, "unexpected request") {
		t.Fatalf("got %d %s", code, body)
	}
	v := s.Verify()
	if v.OK || len(v.Unexpected) != 1 || v.Unexpected[0].ExpectedStep != "run" || !strings.Contains(v.Unexpected[0].Why, "1 messages, observed 3") {
		t.Fatalf("verdict %+v", v)
	}
}

func TestUnconsumedRequiredStepFails(t *testing.T) {
	s, _ := start(t, twoTurns)
	post(t, s.BaseURL()+"/chat/completions", firstTurn)
	v := s.Verify()
	if v.OK || len(v.Problems) != 1 || !strings.Contains(v.Problems[0], "step fix: expected 1 request(s), observed 0") {
		t.Fatalf("verdict %+v", v)
	}
}

func TestToolResultPatternMustMatch(t *testing.T) {
	s, _ := start(t, twoTurns)
	post(t, s.BaseURL()+"/chat/completions", firstTurn)
	passing := strings.Replace(secondTurn, "FAILED", "ok", 1)
	if code, _ := post(t, s.BaseURL()+"/chat/completions", passing); code != 400 {
		t.Fatalf("a passing test result must not match the FAILED step, got %d", code)
	}
	if v := s.Verify(); !strings.Contains(v.Unexpected[0].Why, `tool result matching "FAILED"`) {
		t.Fatalf("why: %q", v.Unexpected[0].Why)
	}
}

func TestModelsAndLlamaSwapUpstream(t *testing.T) {
	s, _ := start(t, `{"version":1,"models":["m","laya"],"steps":[
	 {"id":"obs","endpoint":"laya","match":{"model":"laya","question":"choice"},"respond":{"laya":{"answers":[]}}}]}`)
	resp, err := http.Get(s.BaseURL() + "/models")
	if err != nil {
		t.Fatal(err)
	}
	var list struct {
		Data []struct{ ID string } `json:"data"`
	}
	json.NewDecoder(resp.Body).Decode(&list)
	resp.Body.Close()
	if len(list.Data) != 2 || list.Data[1].ID != "laya" {
		t.Fatalf("models %+v", list)
	}
	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	r, err := noRedirect.Get(s.URL() + "/upstream/laya")
	if err != nil {
		t.Fatal(err)
	}
	r.Body.Close()
	if r.StatusCode != http.StatusMovedPermanently || r.Header.Get("Location") != "/upstream/laya/" {
		t.Fatalf("missing slash: %d %q", r.StatusCode, r.Header.Get("Location"))
	}
	if code, _ := post(t, s.URL()+"/upstream/nope/v1/systemone", `{}`); code != 404 {
		t.Fatalf("unknown model: %d", code)
	}
	if code, body := post(t, s.URL()+"/upstream/laya/v1/systemone", `{"questions":{"kind":{"type":"choice"}}}`); code != 200 || body != `{"answers":[]}` {
		t.Fatalf("laya through upstream: %d %s", code, body)
	}
	if v := s.Verify(); !v.OK || v.MaxConcurrent["laya"] != 1 {
		t.Fatalf("verdict %+v", v)
	}
}

func TestScenarioValidationSaysWhere(t *testing.T) {
	for in, want := range map[string]string{
		`{"version":2}`:                       "version 2 is not supported",
		`{"version":1,"steps":[{"bogus":1}]}`: `unknown field "bogus"`,
		"{\"version\":1,\n\"steps\":[{\"match\":{\"messages\":\"x\"}}]}": "test.json:2",
		`{"version":1,"steps":[{"respond":{"fault":"x"}}]}`:              "fault \"x\" must be",
		`{"version":1,"steps":[{"match":{"last_user":"("}}]}`:            "invalid regexp",
	} {
		_, err := Parse("test.json", []byte(in))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: got %v, want %q", in, err, want)
		}
	}
}
