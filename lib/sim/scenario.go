// Package sim is Fluzo's deterministic model simulator: an HTTP server on
// loopback that speaks the OpenAI-compatible and Laya endpoints and answers
// from a scenario of ordered steps. It is used in-process by Go tests
// (Start) and as the fluzo-sim binary. It never edits files or runs tools.
package sim

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"strings"

	"github.com/josecorral/fluzo/lib/core"
)

// Version is the scenario format version this package reads.
const Version = 1

// Scenario is a versioned script of expected requests and their answers.
// See share/scenarios/README.md for the format.
type Scenario struct {
	Version int      `json:"version"`
	Name    string   `json:"name"`
	Models  []string `json:"models"`
	Steps   []Step   `json:"steps"`
}

// Endpoint kinds a step can answer.
const (
	EndpointChat = "chat"
	EndpointLaya = "laya"
)

// Step is one expected request and its scripted answer. Steps of one
// endpoint are consumed in order; each endpoint has its own queue.
type Step struct {
	ID       string  `json:"id"`
	Endpoint string  `json:"endpoint,omitempty"` // chat (default) or laya
	Optional bool    `json:"optional,omitempty"`
	Times    int     `json:"times,omitempty"` // how many requests this step answers (default 1)
	Match    Match   `json:"match"`
	Respond  Respond `json:"respond"`
	// timesGiven says the file wrote times, so 0 is refused, not defaulted.
	timesGiven bool
}

// Match lists what the request must contain; empty fields match anything.
type Match struct {
	Model       string      `json:"model,omitempty"`
	Stream      *bool       `json:"stream,omitempty"`
	Tools       []string    `json:"tools,omitempty"`        // each must be offered
	Messages    int         `json:"messages,omitempty"`     // exact message count
	MinMessages int         `json:"min_messages,omitempty"` // at least this many
	LastUser    string      `json:"last_user,omitempty"`    // regexp on the last user message
	ToolResult  *ToolResult `json:"tool_result,omitempty"`  // the last message is this tool's result
	Question    string      `json:"question,omitempty"`     // Laya: a question of this type is asked
}

// ToolResult matches the last tool message and the call it answers.
type ToolResult struct {
	Tool      string `json:"tool,omitempty"`      // the called tool's name
	Arguments string `json:"arguments,omitempty"` // regexp on the call's arguments JSON
	Content   string `json:"content,omitempty"`   // regexp on the tool message content
}

// Respond is the scripted answer.
type Respond struct {
	Text         string          `json:"text,omitempty"`
	Reasoning    string          `json:"reasoning,omitempty"`
	ToolCalls    []SimToolCall   `json:"tool_calls,omitempty"`
	FinishReason string          `json:"finish_reason,omitempty"`
	Usage        *SimUsage       `json:"usage,omitempty"`
	UsageIn      string          `json:"usage_in,omitempty"` // finish (default), separate, none
	Fragment     Fragment        `json:"fragment,omitempty"`
	Laya         json.RawMessage `json:"laya,omitempty"`

	HeaderDelayMS int `json:"header_delay_ms,omitempty"` // before headers
	FirstDelayMS  int `json:"first_delay_ms,omitempty"`  // after headers, before the first chunk
	KeepAliveMS   int `json:"keepalive_ms,omitempty"`    // ": keep-alive" interval during first_delay_ms
	ChunkDelayMS  int `json:"chunk_delay_ms,omitempty"`  // between chunks
	StallAfter    int `json:"stall_after,omitempty"`     // chunks sent before stalling
	StallMS       int `json:"stall_ms,omitempty"`        // how long the stall lasts

	// Hold, when set, names a gate: the answer waits before its headers
	// until the gate is released (Server.Release, POST /_sim/release).
	Hold string `json:"hold,omitempty"`

	Status     int       `json:"status,omitempty"`      // error status (4xx/5xx)
	RetryAfter string    `json:"retry_after,omitempty"` // Retry-After header with status
	Body       string    `json:"body,omitempty"`        // raw error body
	Redirect   *Redirect `json:"redirect,omitempty"`
	Fault      string    `json:"fault,omitempty"`       // malformed_json, disconnect
	FaultAfter int       `json:"fault_after,omitempty"` // chunks sent before the fault
}

// Redirect answers with a 3xx. Location may use {target} (the second
// listener's URL, which counts hits and must never be reached) and {self}.
type Redirect struct {
	Status   int    `json:"status"`
	Location string `json:"location"`
}

// SimToolCall is a tool call the simulator emits.
type SimToolCall struct {
	ID        string          `json:"id,omitempty"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
	// RawArguments, when set, is sent verbatim as the arguments string
	// (to script invalid JSON).
	RawArguments *string `json:"raw_arguments,omitempty"`
}

// SimUsage is the usage to report.
type SimUsage struct {
	Input  int64 `json:"input"`
	Output int64 `json:"output"`
}

// Fragment says how streamed tool calls are cut.
type Fragment struct {
	// Style: openai (default: id+name first, then argument pieces),
	// vllm (later deltas carry "id":""), whole (one chunk per call),
	// whole_index0 (each whole call at index 0, Ollama-style), no_index
	// (no "index" field, Gemini-compatible proxies).
	Style string `json:"style,omitempty"`
	Size  int    `json:"size,omitempty"` // argument bytes per chunk (default 8)
	// FinishWithContent puts finish_reason on the last content chunk.
	FinishWithContent bool `json:"finish_with_content,omitempty"`
}

// Load reads and validates a scenario file.
func Load(path string) (*Scenario, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, core.Wrap(err, core.CodeNotFound, fmt.Sprintf("cannot read scenario %s", path)).
			WithHint("pass an existing scenario file; examples are in share/scenarios/")
	}
	return Parse(path, data)
}

// Parse decodes and validates a scenario; name is used in messages.
func Parse(name string, data []byte) (*Scenario, error) {
	sc, problems, err := parse(name, data)
	if err != nil {
		return nil, err
	}
	if err := problemsError(name, problems); err != nil {
		return nil, err
	}
	return sc, nil
}

// parse decodes a scenario and lists its problems; the error is a decode
// failure, where nothing further can be checked.
func parse(name string, data []byte) (*Scenario, []string, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var sc Scenario
	if err := dec.Decode(&sc); err != nil {
		return nil, nil, decodeError(name, data, err, dec.InputOffset())
	}
	// "times": 0 and an absent times decode alike; only the raw keys tell.
	var raw struct {
		Steps []map[string]json.RawMessage `json:"steps"`
	}
	json.Unmarshal(data, &raw)
	for i := range sc.Steps {
		if i < len(raw.Steps) {
			_, sc.Steps[i].timesGiven = raw.Steps[i]["times"]
		}
	}
	return &sc, sc.problems(), nil
}

// decodeError locates err in data: syntax and type errors carry their
// offset; for others (unknown fields) the decoder's position is used.
func decodeError(name string, data []byte, err error, pos int64) error {
	line := lineAt(data, pos)
	if f, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
		if i := bytes.Index(data, []byte(f)); i >= 0 {
			line = lineAt(data, int64(i))
		}
	}
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case asErr(err, &se):
		line = lineAt(data, se.Offset)
	case asErr(err, &te):
		line = lineAt(data, te.Offset)
	}
	loc := name
	if line > 0 {
		loc = fmt.Sprintf("%s:%d", name, line)
	}
	return core.Errorf(core.CodeInvalidConfiguration, "%s: invalid scenario: %s", loc, core.DescribeJSONError(err)).
		WithHint("see share/scenarios/README.md for the scenario format")
}

func lineAt(data []byte, off int64) int {
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	return bytes.Count(data[:off], []byte("\n")) + 1
}

// problems lists everything wrong with the scenario, so one check reports
// every error at once.
func (sc *Scenario) problems() []string {
	var out []string
	if sc.Version != Version {
		out = append(out, fmt.Sprintf("scenario version %d is not supported (this simulator reads version %d)", sc.Version, Version))
	}
	seen := map[string]bool{}
	for i := range sc.Steps {
		st := &sc.Steps[i]
		if st.ID == "" {
			st.ID = fmt.Sprintf("step%d", i+1)
		}
		if seen[st.ID] {
			out = append(out, fmt.Sprintf("steps[%d]: duplicate step id %q", i, st.ID))
		}
		seen[st.ID] = true
		if st.Endpoint == "" {
			st.Endpoint = EndpointChat
		}
		if st.timesGiven && st.Times < 1 {
			out = append(out, fmt.Sprintf("steps[%d] (%s): times must be 1 or more (omit it for 1)", i, st.ID))
		}
		if err := st.validate(); err != "" {
			out = append(out, fmt.Sprintf("steps[%d] (%s): %s", i, st.ID, err))
		}
	}
	return out
}

// lint adds what check refuses but serve accepts: an empty scenario
// (tests serve one to assert that no request is made) and a step matching
// a model the scenario does not declare.
func (sc *Scenario) lint() []string {
	var out []string
	if len(sc.Steps) == 0 {
		out = append(out, "the scenario has no steps, so any request fails it")
	}
	declared := map[string]bool{}
	for _, m := range sc.Models {
		declared[m] = true
	}
	for i, st := range sc.Steps {
		if m := st.Match.Model; m != "" && !declared[m] {
			out = append(out, fmt.Sprintf("steps[%d] (%s): match.model %q is not declared in models %q", i, st.ID, m, sc.Models))
		}
	}
	return out
}

// Check reads a scenario like Load and also refuses what a scenario file
// meant for use should not contain (lint), reporting every problem at
// once.
func Check(path string) (*Scenario, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Load(path) // the same typed read error
	}
	sc, problems, err := parse(path, data)
	if err != nil {
		return nil, err
	}
	if err := problemsError(path, append(problems, sc.lint()...)); err != nil {
		return nil, err
	}
	return sc, nil
}

func problemsError(name string, problems []string) error {
	if len(problems) == 0 {
		return nil
	}
	msg := problems[0]
	if len(problems) > 1 {
		msg = fmt.Sprintf("%d problems: %s", len(problems), strings.Join(problems, "; "))
	}
	return core.Errorf(core.CodeInvalidConfiguration, "%s: %s", name, msg).With("problems", problems).
		WithHint("see share/scenarios/README.md for the scenario format")
}

func (st *Step) validate() string {
	if st.Endpoint != EndpointChat && st.Endpoint != EndpointLaya {
		return fmt.Sprintf("endpoint %q must be chat or laya", st.Endpoint)
	}
	for _, re := range []string{st.Match.LastUser, toolField(st.Match.ToolResult, 0), toolField(st.Match.ToolResult, 1)} {
		if _, err := regexp.Compile(re); err != nil {
			return fmt.Sprintf("invalid regexp %q: %v", re, err)
		}
	}
	r := &st.Respond
	switch r.Fault {
	case "", "malformed_json", "disconnect":
	default:
		return fmt.Sprintf("fault %q must be malformed_json or disconnect", r.Fault)
	}
	switch r.UsageIn {
	case "", "finish", "separate", "none":
	default:
		return fmt.Sprintf("usage_in %q must be finish, separate or none", r.UsageIn)
	}
	switch r.Fragment.Style {
	case "", "openai", "vllm", "whole", "whole_index0", "no_index":
	default:
		return fmt.Sprintf("fragment.style %q must be openai, vllm, whole, whole_index0 or no_index", r.Fragment.Style)
	}
	if r.Redirect != nil && (r.Redirect.Status < 300 || r.Redirect.Status > 399) {
		return fmt.Sprintf("redirect.status %d is not a 3xx status", r.Redirect.Status)
	}
	if r.Status != 0 && (r.Status < 400 || r.Status > 599) {
		return fmt.Sprintf("status %d must be an error status (400-599)", r.Status)
	}
	for j, tc := range r.ToolCalls {
		if tc.Name == "" {
			return fmt.Sprintf("tool_calls[%d] has no name", j)
		}
		if tc.RawArguments == nil && len(tc.Arguments) > 0 && !json.Valid(tc.Arguments) {
			return fmt.Sprintf("tool_calls[%d].arguments is not valid JSON", j)
		}
	}
	if st.Endpoint == EndpointLaya && r.Laya == nil && r.Status == 0 && r.Redirect == nil && r.Fault == "" {
		return "a laya step needs respond.laya, status, redirect or fault"
	}
	return ""
}

func toolField(t *ToolResult, i int) string {
	if t == nil {
		return ""
	}
	if i == 0 {
		return t.Arguments
	}
	return t.Content
}
