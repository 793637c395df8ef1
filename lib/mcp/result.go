package mcp

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/termsafe"
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

// convert maps a tools/call result to Result, sanitizing every string the
// server chose as untrusted text.
func convert(r *callToolResult) Result {
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
		switch c.Type {
		case "text":
			out.Content = append(out.Content, Part{Type: "text", Text: text(c.Text)})
		case "image", "audio":
			out.Content = append(out.Content, Part{Type: c.Type, MIMEType: termsafe.Line(c.MIMEType), Bytes: decodedLen(c.Data)})
		case "resource_link":
			out.Content = append(out.Content, Part{Type: "resource_link", URI: termsafe.Line(c.URI), Text: text(c.Description)})
		case "resource":
			p := Part{Type: "resource"}
			if v := c.Resource; v != nil {
				p.URI, p.MIMEType, p.Text, p.Bytes = termsafe.Line(v.URI), termsafe.Line(v.MIMEType), text(v.Text), decodedLen(v.Blob)
			}
			out.Content = append(out.Content, p)
		default:
			out.Content = append(out.Content, Part{Type: "unsupported"})
		}
	}
	if s := bytes.TrimSpace(r.StructuredContent); len(s) > 0 && string(s) != "null" {
		if len(s) > maxResultChars {
			out.Truncated = true
		} else if json.Valid(s) {
			var compact bytes.Buffer
			if json.Compact(&compact, s) == nil {
				out.Structured = termsafe.JSON(compact.Bytes())
			}
		}
	}
	return out
}

// decodedLen is the size of base64 data once decoded: what an image,
// audio or blob part weighs, without keeping its bytes.
func decodedLen(b64 string) int {
	n := len(b64)
	if n == 0 {
		return 0
	}
	pad := len(b64) - len(strings.TrimRight(b64, "="))
	return n/4*3 - pad
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
