package provider_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/josecorral/fluzo/lib/provider"
)

var layaQuestions = map[string]provider.Question{
	"kind":    {Type: provider.QuestionChoice, Instructions: "What kind of task?", Criteria: map[string]string{"bugfix": "", "feature": "", "question": ""}},
	"risk":    {Type: provider.QuestionScore, Instructions: "How risky?", Levels: []string{"low", "medium", "high"}},
	"editing": {Type: provider.QuestionNoul, Instructions: "Does the user forbid edits?"},
}

const validAnswers = `"kind":{"type":"choice","choice":"bugfix","probabilities":{"bugfix":0.8,"feature":0.15,"question":0.05},"confidence":0.7%s},
 "risk":{"type":"score","score":0.4,"probabilities":{"0":0.65,"1":0.3,"2":0.05},"confidence":0.5},
 "editing":{"noul":0.1}`

func layaScenario(answer string) string {
	return `{"version":1,"models":["laya"],"steps":[{"id":"q","endpoint":"laya","match":{"model":"laya","question":"score"},"respond":{"laya":` + answer + `}}]}`
}

func ask(t *testing.T, base string) (*provider.LayaResponse, error) {
	t.Helper()
	l, err := provider.NewLaya(provider.Endpoint{BaseURL: base})
	if err != nil {
		t.Fatal(err)
	}
	return l.Ask(context.Background(), provider.LayaRequest{Model: "laya", State: "fix the failing test", Questions: layaQuestions})
}

func TestLayaFullResponseThroughLlamaSwap(t *testing.T) {
	full := `{"model":"laya","answers":{` + strings.Replace(validAnswers, "%s", `,"answer_confidence":0.6`, 1) +
		`},"action":{"act_probability":0.35},"routing":{"suggested":"none"},"usage":{"prompt_tokens":88}}`
	s := startSim(t, layaScenario(full))
	resp, err := ask(t, s.URL()+"/upstream/laya/v1")
	if err != nil {
		t.Fatal(err)
	}
	k := resp.Answers["kind"]
	if resp.Shape != provider.ShapeFull || k.Choice != "bugfix" || *k.Confidence != 0.7 || *k.AnswerConfidence != 0.6 || k.Probabilities["bugfix"] != 0.8 {
		t.Fatalf("kind %+v shape %s", k, resp.Shape)
	}
	if *resp.ActProbability != 0.35 || *resp.Usage.Input != 88 || string(resp.Routing) != `{"suggested":"none"}` {
		t.Fatalf("response %+v", resp)
	}
	if *resp.Answers["risk"].Score != 0.4 || *resp.Answers["editing"].Noul != 0.1 || resp.Answers["editing"].Type != provider.QuestionNoul {
		t.Fatalf("answers %+v", resp.Answers)
	}
	mustVerify(t, s)
}

func TestLayaStrictJevShape(t *testing.T) {
	jev := `{"model":"jev-1","answers":{` + strings.Replace(validAnswers, "%s", "", 1) + `},"usage":{"input_tokens":12}}`
	s := startSim(t, layaScenario(jev))
	resp, err := ask(t, s.BaseURL())
	if err != nil {
		t.Fatal(err)
	}
	if resp.Shape != provider.ShapeJev || resp.ActProbability != nil || resp.Answers["kind"].AnswerConfidence != nil || *resp.Usage.Input != 12 {
		t.Fatalf("response %+v", resp)
	}
}

func TestLayaInvalidAnswersAreRejected(t *testing.T) {
	valid := strings.Replace(validAnswers, "%s", "", 1)
	swap := func(old, new string) string {
		return `{"answers":{` + strings.Replace(valid, old, new, 1) + `}}`
	}
	cases := map[string]string{
		"unknown type":         swap(`"type":"choice"`, `"type":"ranking"`),
		"out of set choice":    swap(`"choice":"bugfix"`, `"choice":"deploy"`),
		"probability above 1":  swap(`"bugfix":0.8`, `"bugfix":1.8`),
		"negative probability": swap(`"feature":0.15`, `"feature":-0.15`),
		"sum not 1":            swap(`"question":0.05`, `"question":0.5`),
		"missing option":       swap(`,"question":0.05`, ``),
		"extra option":         swap(`"question":0.05`, `"question":0.05,"deploy":0`),
		"missing confidence":   swap(`,"confidence":0.7`, ``),
		"confidence above 1":   swap(`"confidence":0.7`, `"confidence":7`),
		"noul above 1":         swap(`"noul":0.1`, `"noul":1.1`),
		"noul missing":         swap(`{"noul":0.1}`, `{"type":"noul"}`),
		"score out of range":   swap(`"score":0.4`, `"score":2.5`),
		"type mismatch":        swap(`{"noul":0.1}`, `{"type":"choice","choice":"bugfix"}`),
		"missing answer":       `{"answers":{"kind":{"type":"choice","choice":"bugfix","probabilities":{"bugfix":1,"feature":0,"question":0},"confidence":1}}}`,
		"unasked answer":       swap(`"editing":{"noul":0.1}`, `"editing":{"noul":0.1},"other":{"noul":0.5}`),
		"no answers":           `{"model":"laya"}`,
		"act_probability":      `{"answers":{` + valid + `},"action":{"act_probability":1.5}}`,
		"not json":             `"just text"`,
	}
	for name, answer := range cases {
		t.Run(name, func(t *testing.T) {
			if !json.Valid([]byte(answer)) {
				t.Fatalf("test answer is not JSON: %s", answer)
			}
			s := startSim(t, layaScenario(answer))
			resp, err := ask(t, s.BaseURL())
			if resp != nil || provider.ClassOf(err) != provider.ClassProtocol {
				t.Fatalf("resp %+v class %q err %v", resp, provider.ClassOf(err), err)
			}
		})
	}
}

func TestLayaNeverFollowsRedirects(t *testing.T) {
	s := startSim(t, `{"version":1,"models":["laya"],"steps":[{"id":"q","endpoint":"laya","respond":{"redirect":{"status":308,"location":"{target}/v1/systemone"}}}]}`)
	_, err := ask(t, s.BaseURL())
	if provider.ClassOf(err) != provider.ClassRedirectBlocked {
		t.Fatalf("err %v", err)
	}
	if v := mustVerify(t, s); v.RedirectTarget.Hits != 0 || v.Requests != 1 {
		t.Fatalf("verdict %+v", v)
	}
}

func TestLayaTimeoutIsBounded(t *testing.T) {
	s := startSim(t, `{"version":1,"models":["laya"],"steps":[{"id":"q","endpoint":"laya","respond":{"header_delay_ms":30000,"laya":{}}}]}`)
	l, err := provider.NewLaya(provider.Endpoint{BaseURL: s.BaseURL(), Timeouts: provider.Timeouts{Total: 100 * time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = l.Ask(context.Background(), provider.LayaRequest{Model: "laya", Questions: layaQuestions})
	if provider.ClassOf(err) != provider.ClassTimeoutTotal {
		t.Fatalf("err %v", err)
	}
}
