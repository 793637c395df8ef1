package provider_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/josecorral/fluzo/lib/provider"
)

const twoCalls = `"tool_calls":[{"id":"c1","name":"read","arguments":{"path":"src/lib.rs"}},{"id":"c2","name":"exec","arguments":{"cmd":"cargo test"}}]`

// The simulator's fragment styles reproduce each server dialect; the
// client assembles the same two calls from all of them.
func TestToolCallDialects(t *testing.T) {
	for _, style := range []string{"openai", "vllm", "whole", "whole_index0", "no_index"} {
		for _, stream := range []bool{true, false} {
			t.Run(style, func(t *testing.T) {
				s := startSim(t, oneStep(`{"text":"checking",`+twoCalls+`,"fragment":{"style":"`+style+`","size":3},"usage":{"input":10,"output":4}}`))
				resp, err := client(t, s.BaseURL(), nil).Chat(context.Background(), chatReq(stream), nil)
				if err != nil {
					t.Fatal(err)
				}
				got := resp.ToolCalls
				if len(got) != 2 || got[0].ID != "c1" || got[0].Name != "read" || string(got[0].Arguments) != `{"path":"src/lib.rs"}` ||
					got[1].ID != "c2" || got[1].Name != "exec" || string(got[1].Arguments) != `{"cmd":"cargo test"}` {
					t.Fatalf("tool calls %+v", got)
				}
				if resp.Content != "checking" || resp.FinishReason != "tool_calls" || resp.Usage.Source != provider.UsageReported {
					t.Fatalf("response %+v", resp)
				}
				mustVerify(t, s)
			})
		}
	}
}

func TestUsagePlacementsAndReasoning(t *testing.T) {
	for _, where := range []string{"finish", "separate", "none"} {
		s := startSim(t, oneStep(`{"text":"hi","reasoning":"thinking about it","usage":{"input":7,"output":2},"usage_in":"`+where+`","fragment":{"finish_with_content":true}}`))
		resp, err := client(t, s.BaseURL(), nil).Chat(context.Background(), chatReq(true), nil)
		if err != nil {
			t.Fatal(err)
		}
		if resp.Content != "hi" || resp.Reasoning != "thinking about it" || resp.FinishReason != "stop" {
			t.Fatalf("%s: %+v", where, resp)
		}
		if where == "none" {
			if resp.Usage.Source != provider.UsageUnknown || resp.Usage.Input != nil || resp.Usage.Output != nil {
				t.Fatalf("absent usage must be unknown: %+v", resp.Usage)
			}
		} else if resp.Usage.Source != provider.UsageReported || *resp.Usage.Input != 7 || *resp.Usage.Output != 2 {
			t.Fatalf("%s: usage %+v", where, resp.Usage)
		}
		if resp.Estimate.Source != provider.UsageEstimated || *resp.Estimate.Output <= 0 {
			t.Fatalf("estimate %+v", resp.Estimate)
		}
	}
}

func TestMalformedAnswersAreProtocolErrors(t *testing.T) {
	for name, respond := range map[string]string{
		"malformed chunk":       `{"text":"hello there","fault":"malformed_json","fault_after":2}`,
		"invalid arguments":     `{"tool_calls":[{"name":"exec","raw_arguments":"{\"cmd\": \"rm"}]}`,
		"arguments not object":  `{"tool_calls":[{"name":"exec","raw_arguments":"[1,2]"}]}`,
		"malformed body":        `{"text":"hello","fault":"malformed_json"}`,
		"malformed chunk early": `{"text":"x","fault":"malformed_json","fault_after":0}`,
	} {
		for _, stream := range []bool{true, false} {
			if strings.Contains(name, "chunk") && !stream || name == "malformed body" && stream {
				continue
			}
			t.Run(name, func(t *testing.T) {
				s := startSim(t, oneStep(respond))
				resp, err := client(t, s.BaseURL(), func(e *provider.Endpoint) { e.Retries = 2 }).Chat(context.Background(), chatReq(stream), nil)
				if resp != nil || provider.ClassOf(err) != provider.ClassProtocol {
					t.Fatalf("resp %+v class %q err %v", resp, provider.ClassOf(err), err)
				}
				if len(provider.AttemptsOf(err)) != 1 {
					t.Fatalf("protocol errors are not retried")
				}
			})
		}
	}
}

func TestBuffersAreBounded(t *testing.T) {
	s := startSim(t, oneStep(`{"tool_calls":[{"name":"write","arguments":{"text":"`+strings.Repeat("x", 4000)+`"}}]}`))
	c := client(t, s.BaseURL(), func(e *provider.Endpoint) { e.Limits.MaxArgumentsBytes = 1024 })
	_, err := c.Chat(context.Background(), chatReq(true), nil)
	if provider.ClassOf(err) != provider.ClassProtocol || !strings.Contains(err.Error(), "over 1024 bytes") {
		t.Fatalf("err %v", err)
	}
	s = startSim(t, oneStep(`{"text":"`+strings.Repeat("y", 4000)+`"}`))
	c = client(t, s.BaseURL(), func(e *provider.Endpoint) { e.Limits.MaxContentBytes = 1000 })
	if _, err = c.Chat(context.Background(), chatReq(true), nil); provider.ClassOf(err) != provider.ClassProtocol {
		t.Fatalf("content limit: %v", err)
	}
}

// Proxy variables are ignored: the request goes straight to the server.
func TestEnvironmentProxyIsIgnored(t *testing.T) {
	s := startSim(t, oneStep(`{"text":"direct"}`))
	t.Setenv("HTTP_PROXY", s.TargetURL())
	t.Setenv("http_proxy", s.TargetURL())
	t.Setenv("NO_PROXY", "")
	t.Setenv("OPENAI_BASE_URL", s.TargetURL())
	resp, err := client(t, s.BaseURL(), nil).Chat(context.Background(), chatReq(true), nil)
	if err != nil || resp.Content != "direct" {
		t.Fatalf("resp %+v err %v", resp, err)
	}
	if v := mustVerify(t, s); v.RedirectTarget.Hits != 0 {
		t.Fatalf("proxy used: %+v", v.RedirectTarget)
	}
}

func TestModelsDiscovery(t *testing.T) {
	s := startSim(t, `{"version":1,"models":["qwen","laya"],"steps":[]}`)
	for _, base := range []string{s.BaseURL(), s.URL() + "/upstream/qwen/v1"} {
		models, err := client(t, base, nil).Models(context.Background())
		if err != nil || len(models) != 2 || models[0].ID != "qwen" {
			t.Fatalf("%s: %+v %v", base, models, err)
		}
	}
	_, err := client(t, s.URL()+"/upstream/qwen", nil).Models(context.Background())
	if provider.ClassOf(err) != provider.ClassInvalidRequest {
		// "/upstream/qwen/models" is not a models path; 404 from the simulator
		t.Fatalf("err %v", err)
	}
	_, err = client(t, s.URL()+"/upstream/nope/v1", nil).Models(context.Background())
	if provider.StatusOf(err) != http.StatusNotFound {
		t.Fatalf("unknown upstream model: %v", err)
	}
}
