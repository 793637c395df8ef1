package mcp

import (
	"encoding/json"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/termsafe"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// maxResultChars bounds the text of one call's result kept by Fluzo; the
// agent stores what exceeds its context bound as an artifact.
const maxResultChars = 1 << 20

// Result is what one tools/call returned, in Fluzo's terms.
type Result struct {
	// IsError is the server's own "the tool failed" (the call was
	// answered); it is a failed outcome, not a lost one.
	IsError bool `json:"is_error"`
	// Content holds the text parts (sanitized, bounded) and a summary of
	// the others (images and audio by type and size, never their bytes).
	Content    []Part          `json:"content"`
	Structured json.RawMessage `json:"structured,omitempty"`
	Truncated  bool            `json:"truncated,omitempty"`
}

// Part is one content part of a result.
type Part struct {
	Type     string `json:"type"`
	Text     string `json:"text,omitempty"`
	MIMEType string `json:"mime_type,omitempty"`
	Bytes    int    `json:"bytes,omitempty"`
	URI      string `json:"uri,omitempty"`
}

// convert maps the SDK's result to Result, sanitizing every string the
// server chose as untrusted text.
func convert(r *sdk.CallToolResult) Result {
	out := Result{IsError: r.IsError}
	budget := maxResultChars
	text := func(s string) string {
		head, cut := termsafe.Head(s, budget)
		budget -= len([]rune(head))
		if cut {
			out.Truncated = true
		}
		return termsafe.Text(head)
	}
	for _, c := range r.Content {
		switch v := c.(type) {
		case *sdk.TextContent:
			out.Content = append(out.Content, Part{Type: "text", Text: text(v.Text)})
		case *sdk.ImageContent:
			out.Content = append(out.Content, Part{Type: "image", MIMEType: termsafe.Line(v.MIMEType), Bytes: len(v.Data)})
		case *sdk.AudioContent:
			out.Content = append(out.Content, Part{Type: "audio", MIMEType: termsafe.Line(v.MIMEType), Bytes: len(v.Data)})
		case *sdk.ResourceLink:
			out.Content = append(out.Content, Part{Type: "resource_link", URI: termsafe.Line(v.URI), Text: text(v.Description)})
		case *sdk.EmbeddedResource:
			p := Part{Type: "resource"}
			if v.Resource != nil {
				p.URI, p.MIMEType, p.Text, p.Bytes = termsafe.Line(v.Resource.URI), termsafe.Line(v.Resource.MIMEType), text(v.Resource.Text), len(v.Resource.Blob)
			}
			out.Content = append(out.Content, p)
		default:
			out.Content = append(out.Content, Part{Type: "unsupported"})
		}
	}
	if r.StructuredContent != nil {
		if b, err := json.Marshal(r.StructuredContent); err == nil {
			if len(b) > maxResultChars {
				out.Truncated = true
			} else {
				out.Structured = termsafe.JSON(b)
			}
		}
	}
	return out
}

// errorText is the first text of a failed result, for the error message.
func (r Result) errorText() string {
	for _, p := range r.Content {
		if p.Type == "text" && p.Text != "" {
			t, _ := termsafe.Head(p.Text, 300)
			return t
		}
	}
	return "the tool reported an error"
}

// Outcome is the answer to one Call, as the agent records it.
type Outcome struct {
	OK bool
	// Unknown: the request may have reached the server, but no answer
	// came back (it died, the connection broke, or the call was
	// cancelled); whether it took effect is not known.
	Unknown bool
	Result  json.RawMessage
	Error   *core.Error
}
