package mcp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/josecorral/fluzo/lib/termsafe"
)

// Bounds of what one server's tool list may put in front of the model.
const (
	maxDescriptionChars = 1024
	maxSchemaBytes      = 16 << 10
	maxToolsPerServer   = 128
)

// Tool is one offered MCP tool.
type Tool struct {
	Server string `json:"server"`
	// Name is the server's own name for the tool; Model the name the
	// model calls.
	Name        string `json:"name"`
	Model       string `json:"model_name"`
	Description string `json:"description"`
	// Hints are the server's claims (read_only, destructive, ...): shown
	// to the user and the model, never used to authorize.
	Hints      []string        `json:"hints,omitempty"`
	Parameters json.RawMessage `json:"-"`
}

// Skipped is a tool the server listed that is not offered, and why.
type Skipped struct {
	Name   string `json:"name"`
	Reason string `json:"reason"`
}

// offer turns a server's tools/list answer into offered tools: filtered
// by the allow-list, names made model-safe, descriptions sanitized as
// untrusted text and bounded, oversized schemas refused.
func offer(server string, allow []string, listed []*wireTool) ([]Tool, []Skipped) {
	var out []Tool
	var skipped []Skipped
	seen := map[string]bool{}
	for _, t := range listed {
		if t == nil {
			continue
		}
		if len(allow) > 0 && !contains(allow, t.Name) {
			skipped = append(skipped, Skipped{Name: termsafe.Line(t.Name), Reason: "not in the tools allow-list"})
			continue
		}
		model, ok := ModelName(server, t.Name)
		switch {
		case !ok:
			skipped = append(skipped, Skipped{Name: termsafe.Line(t.Name), Reason: fmt.Sprintf("mcp__%s__TOOL would be longer than %d characters", server, maxModelName)})
			continue
		case seen[model]:
			skipped = append(skipped, Skipped{Name: termsafe.Line(t.Name), Reason: "its model name collides with another tool's"})
			continue
		case len(out) >= maxToolsPerServer:
			skipped = append(skipped, Skipped{Name: termsafe.Line(t.Name), Reason: fmt.Sprintf("the server lists more than %d tools", maxToolsPerServer)})
			continue
		}
		params, problem := parameters(t.InputSchema)
		if problem != "" {
			skipped = append(skipped, Skipped{Name: termsafe.Line(t.Name), Reason: problem})
			continue
		}
		seen[model] = true
		hints := hintsOf(t.Annotations)
		out = append(out, Tool{Server: server, Name: t.Name, Model: model, Description: describe(t.Description, hints),
			Hints: hints, Parameters: params})
	}
	return out, skipped
}

// describe bounds the server's description and makes it terminal-safe:
// it is untrusted text that reaches the model, the TUI and the store.
func describe(desc string, hints []string) string {
	head, cut := termsafe.Head(strings.TrimSpace(desc), maxDescriptionChars)
	out := termsafe.Text(head)
	if cut {
		out += " [description truncated]"
	}
	if len(hints) > 0 {
		out += " (server hints, not verified: " + strings.Join(hints, ", ") + ")"
	}
	return out
}

func hintsOf(a *toolAnnotations) []string {
	if a == nil {
		return nil
	}
	var h []string
	if a.ReadOnlyHint {
		h = append(h, "read_only")
	}
	if a.DestructiveHint != nil && *a.DestructiveHint {
		h = append(h, "destructive")
	}
	if a.IdempotentHint {
		h = append(h, "idempotent")
	}
	if a.OpenWorldHint != nil && *a.OpenWorldHint {
		h = append(h, "open_world")
	}
	return h
}

// parameters returns the tool's input schema as function parameters.
func parameters(schema json.RawMessage) (json.RawMessage, string) {
	if t := bytes.TrimSpace(schema); len(t) == 0 || string(t) == "null" {
		return json.RawMessage(`{"type":"object","properties":{}}`), ""
	}
	var b bytes.Buffer
	if json.Compact(&b, schema) != nil {
		return nil, "its input schema is not JSON"
	}
	if b.Len() > maxSchemaBytes {
		return nil, fmt.Sprintf("its input schema is %d bytes (at most %d are offered)", b.Len(), maxSchemaBytes)
	}
	var obj map[string]any
	if json.Unmarshal(b.Bytes(), &obj) != nil || obj["type"] != "object" {
		return nil, "its input schema is not a JSON object schema"
	}
	return b.Bytes(), ""
}

func contains(list []string, s string) bool {
	for _, e := range list {
		if e == s {
			return true
		}
	}
	return false
}

// schema is an OpenAI function-tool definition, the format of
// fluzo-tool's schemas.
type schema struct {
	Type     string   `json:"type"`
	Function function `json:"function"`
}

type function struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`
}
