package sim_test

import (
	"context"
	"testing"

	"github.com/josecorral/fluzo/lib/sim"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/shared"
)

// The official openai-go client (a test-only dependency) decodes the
// simulator's streams with its own accumulator: independent proof that
// the simulator speaks the protocol other clients accept.
func TestOpenAIGoAccumulatesSimulatorStreams(t *testing.T) {
	for _, style := range []string{"openai", "vllm", "whole"} {
		t.Run(style, func(t *testing.T) {
			srv := startScenario(t, `{"version":1,"models":["m"],"steps":[{"id":"s","match":{"model":"m","tools":["exec"]},"respond":{
			  "text":"Running the tests now.","reasoning":"need to see failures",
			  "tool_calls":[{"id":"c1","name":"exec","arguments":{"cmd":"cargo test"}},{"id":"c2","name":"read","arguments":{"path":"src/lib.rs"}}],
			  "fragment":{"style":"`+style+`","size":5},"usage":{"input":31,"output":9},"usage_in":"separate"}}]}`)
			client := openai.NewClient(option.WithBaseURL(srv.BaseURL()+"/"), option.WithAPIKey("sk-test"), option.WithMaxRetries(0))
			stream := client.Chat.Completions.NewStreaming(context.Background(), openai.ChatCompletionNewParams{
				Model:         "m",
				Messages:      []openai.ChatCompletionMessageParamUnion{openai.UserMessage("fix the tests")},
				Tools:         []openai.ChatCompletionToolUnionParam{openai.ChatCompletionFunctionTool(shared.FunctionDefinitionParam{Name: "exec"})},
				StreamOptions: openai.ChatCompletionStreamOptionsParam{IncludeUsage: openai.Bool(true)},
			})
			acc := openai.ChatCompletionAccumulator{}
			finished := 0
			for stream.Next() {
				if !acc.AddChunk(stream.Current()) {
					t.Fatalf("the accumulator rejected a chunk: %s", stream.Current().RawJSON())
				}
				if _, ok := acc.JustFinishedToolCall(); ok {
					finished++
				}
			}
			if err := stream.Err(); err != nil {
				t.Fatal(err)
			}
			if len(acc.Choices) != 1 {
				t.Fatalf("choices %+v", acc.Choices)
			}
			msg := acc.Choices[0].Message
			if msg.Content != "Running the tests now." || acc.Choices[0].FinishReason != "tool_calls" {
				t.Fatalf("content %q finish %q", msg.Content, acc.Choices[0].FinishReason)
			}
			if len(msg.ToolCalls) != 2 || msg.ToolCalls[0].ID != "c1" || msg.ToolCalls[0].Function.Name != "exec" ||
				msg.ToolCalls[0].Function.Arguments != `{"cmd":"cargo test"}` || msg.ToolCalls[1].Function.Arguments != `{"path":"src/lib.rs"}` {
				t.Fatalf("tool calls %+v", msg.ToolCalls)
			}
			if acc.Usage.PromptTokens != 31 || acc.Usage.CompletionTokens != 9 {
				t.Fatalf("usage %+v", acc.Usage)
			}
			if finished == 0 {
				t.Fatalf("the accumulator never saw a finished tool call")
			}
			if v := srv.Verify(); !v.OK {
				t.Fatalf("verdict %v", v.Problems)
			}
		})
	}
}

func TestOpenAIGoDecodesNonStreamedAnswer(t *testing.T) {
	srv := startScenario(t, `{"version":1,"models":["m"],"steps":[{"id":"s","match":{"stream":false},"respond":{
	  "tool_calls":[{"id":"c1","name":"exec","arguments":{"cmd":"cargo test"}}],"usage":{"input":5,"output":3}}}]}`)
	client := openai.NewClient(option.WithBaseURL(srv.BaseURL()+"/"), option.WithAPIKey("sk-test"), option.WithMaxRetries(0))
	resp, err := client.Chat.Completions.New(context.Background(), openai.ChatCompletionNewParams{
		Model: "m", Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("go")},
	})
	if err != nil {
		t.Fatal(err)
	}
	tc := resp.Choices[0].Message.ToolCalls
	if len(tc) != 1 || tc[0].Function.Arguments != `{"cmd":"cargo test"}` || resp.Usage.TotalTokens != 8 {
		t.Fatalf("response %s", resp.RawJSON())
	}
	models, err := client.Models.List(context.Background())
	if err != nil || len(models.Data) != 1 || models.Data[0].ID != "m" {
		t.Fatalf("models %+v %v", models, err)
	}
}

func startScenario(t *testing.T, scenario string) *sim.Server {
	t.Helper()
	sc, err := sim.Parse(t.Name(), []byte(scenario))
	if err != nil {
		t.Fatal(err)
	}
	s, err := sim.Start(context.Background(), sc)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}
