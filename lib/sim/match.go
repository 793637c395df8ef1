package sim

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// observed is what the simulator understood of one request, for matching
// and for the expected-versus-observed report.
type observed struct {
	Model    string   `json:"model,omitempty"`
	Stream   bool     `json:"stream"`
	Tools    []string `json:"tools,omitempty"`
	Messages int      `json:"messages"`
	LastRole string   `json:"last_role,omitempty"`
	Question []string `json:"questions,omitempty"`
	// Tool and ToolContent are the last tool result's tool and (clipped)
	// content when the request answers a tool call: what a step's
	// tool_result match was applied to, set for the verdict.
	Tool        string `json:"tool,omitempty"`
	ToolContent string `json:"tool_content,omitempty"`
	lastUser    string
	lastTool    *toolTurn
}

type toolTurn struct {
	name, args, content string
}

type chatBody struct {
	Model    string `json:"model"`
	Stream   bool   `json:"stream"`
	Messages []struct {
		Role       string          `json:"role"`
		Content    json.RawMessage `json:"content"`
		ToolCallID string          `json:"tool_call_id"`
		ToolCalls  []struct {
			ID       string `json:"id"`
			Function struct {
				Name      string `json:"name"`
				Arguments string `json:"arguments"`
			} `json:"function"`
		} `json:"tool_calls"`
	} `json:"messages"`
	Tools []struct {
		Function struct {
			Name string `json:"name"`
		} `json:"function"`
	} `json:"tools"`
	Questions map[string]struct {
		Type string `json:"type"`
	} `json:"questions"`
}

// observe decodes a chat or Laya request body.
func observe(body []byte) (observed, error) {
	var b chatBody
	if err := json.Unmarshal(body, &b); err != nil {
		return observed{}, fmt.Errorf("the request body is not valid JSON: %v", err)
	}
	o := observed{Model: b.Model, Stream: b.Stream, Messages: len(b.Messages)}
	for _, t := range b.Tools {
		o.Tools = append(o.Tools, t.Function.Name)
	}
	for _, q := range b.Questions {
		o.Question = append(o.Question, q.Type)
	}
	slices.Sort(o.Question)
	calls := map[string]toolTurn{}
	for _, m := range b.Messages {
		o.LastRole = m.Role
		for _, tc := range m.ToolCalls {
			calls[tc.ID] = toolTurn{name: tc.Function.Name, args: tc.Function.Arguments}
		}
		switch m.Role {
		case "user":
			o.lastUser = contentText(m.Content)
		case "tool":
			t := calls[m.ToolCallID]
			t.content = contentText(m.Content)
			o.lastTool = &t
		}
	}
	if o.LastRole != "tool" {
		o.lastTool = nil
	}
	return o, nil
}

// contentText reads a message content that is a string or an array of
// {"type":"text","text":…} parts.
func contentText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []struct {
		Text string `json:"text"`
	}
	json.Unmarshal(raw, &parts)
	var b strings.Builder
	for _, p := range parts {
		b.WriteString(p.Text)
	}
	return b.String()
}

// mismatch returns "" when o satisfies m, else why not.
func (m *Match) mismatch(o observed) string {
	var why []string
	if m.Model != "" && m.Model != o.Model {
		why = append(why, fmt.Sprintf("model %q, observed %q", m.Model, o.Model))
	}
	if m.Stream != nil && *m.Stream != o.Stream {
		why = append(why, fmt.Sprintf("stream %v, observed %v", *m.Stream, o.Stream))
	}
	for _, t := range m.Tools {
		if !slices.Contains(o.Tools, t) {
			why = append(why, fmt.Sprintf("tool %q offered, observed %v", t, o.Tools))
		}
	}
	if m.Messages > 0 && m.Messages != o.Messages {
		why = append(why, fmt.Sprintf("%d messages, observed %d", m.Messages, o.Messages))
	}
	if m.MinMessages > 0 && o.Messages < m.MinMessages {
		why = append(why, fmt.Sprintf("at least %d messages, observed %d", m.MinMessages, o.Messages))
	}
	if m.LastUser != "" && !regexp.MustCompile(m.LastUser).MatchString(o.lastUser) {
		why = append(why, fmt.Sprintf("last user message matching %q", m.LastUser))
	}
	if m.Question != "" && !slices.Contains(o.Question, m.Question) {
		why = append(why, fmt.Sprintf("a %q question, observed %v", m.Question, o.Question))
	}
	if tr := m.ToolResult; tr != nil {
		why = append(why, tr.mismatch(o.lastTool)...)
	}
	return strings.Join(why, "; ")
}

func (tr *ToolResult) mismatch(t *toolTurn) []string {
	if t == nil {
		return []string{"the last message to be a tool result, observed none"}
	}
	var why []string
	if tr.Tool != "" && tr.Tool != t.name {
		why = append(why, fmt.Sprintf("a result of tool %q, observed %q", tr.Tool, t.name))
	}
	if tr.Arguments != "" && !regexp.MustCompile(tr.Arguments).MatchString(t.args) {
		why = append(why, fmt.Sprintf("tool arguments matching %q", tr.Arguments))
	}
	if tr.Content != "" && !regexp.MustCompile(tr.Content).MatchString(t.content) {
		why = append(why, fmt.Sprintf("tool result matching %q", tr.Content))
	}
	return why
}
