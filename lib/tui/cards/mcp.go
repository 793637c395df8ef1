package cards

import (
	"encoding/json"
	"strings"

	"github.com/josecorral/fluzo/lib/tui/theme"
)

// mcpResult is the part of an MCP call's result (lib/mcp.Result) a card
// shows: the text parts, and the other parts by type and size.
type mcpResult struct {
	IsError bool `json:"is_error"`
	Content []struct {
		Type     string `json:"type"`
		Text     string `json:"text"`
		MIMEType string `json:"mime_type"`
		Bytes    int    `json:"bytes"`
		URI      string `json:"uri"`
	} `json:"content"`
	Truncated bool `json:"truncated"`
}

// mcpCard is for a tool of an MCP server (mcp__SERVER__TOOL): the server
// and tool as its subject, the arguments on one line, then the text the
// server returned — untrusted, sanitized like any other text.
func mcpCard(c *card, op Op) error {
	server, tool, _ := strings.Cut(strings.TrimPrefix(op.Tool, "mcp__"), "__")
	c.tool = "mcp " + safeLine(server)
	c.subject = safeLine(tool)
	if len(op.Args) > 0 && string(op.Args) != "null" && string(op.Args) != "{}" {
		var compact json.RawMessage
		if err := json.Unmarshal(op.Args, &compact); err != nil {
			return &DecodeError{Record: safeLine(op.Tool) + " arguments", Reason: "is not valid JSON"}
		}
		b, _ := json.Marshal(compact)
		c.subject += " " + safeLine(string(b))
	}
	out, ok := decodeOutcome(op)
	if !ok || len(out.Result) == 0 {
		return nil
	}
	var r mcpResult
	if err := decode("result", out.Result, &r); err != nil {
		return err
	}
	var lines []string
	for _, p := range r.Content {
		switch p.Type {
		case "text":
			lines = append(lines, safeLines(p.Text)...)
		default:
			lines = append(lines, safeLine("["+p.Type+" "+p.MIMEType+" "+p.URI+"]"))
		}
	}
	if r.Truncated {
		lines = append(lines, "[the server's result was cut to Fluzo's bound]")
	}
	c.body = plainRows(lines, theme.Panel)
	return nil
}
