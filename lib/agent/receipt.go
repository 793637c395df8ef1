package agent

import (
	"crypto/sha256"
	"encoding/hex"
)

// ReceiptSection describes one section of the initial context: where it
// came from, how big it is and its SHA-256, so that a run's prompt can be
// audited without storing (or showing) its content by default.
type ReceiptSection struct {
	ID        string `json:"id"`
	Source    string `json:"source"`
	Bytes     int    `json:"bytes"`
	SHA256    string `json:"sha256"`
	Truncated bool   `json:"truncated,omitempty"`
	Content   string `json:"content,omitempty"`
}

// PromptReceipt is the record of what the runtime put in front of the
// model at the start of an attempt.
type PromptReceipt struct {
	V        int              `json:"v"`
	Type     string           `json:"type"` // "prompt_receipt"
	Task     string           `json:"task,omitempty"`
	Attempt  string           `json:"attempt,omitempty"`
	Sections []ReceiptSection `json:"sections"`
	// Digest covers every section's id and digest in order: two receipts
	// with the same Digest describe the same prompt.
	Digest string `json:"digest"`
}

func newSection(id, source, content string, truncated bool) ReceiptSection {
	sum := sha256.Sum256([]byte(content))
	return ReceiptSection{ID: id, Source: source, Bytes: len(content), SHA256: hex.EncodeToString(sum[:]), Truncated: truncated, Content: content}
}

func sealReceipt(sections []ReceiptSection) PromptReceipt {
	h := sha256.New()
	for _, s := range sections {
		h.Write([]byte(s.ID))
		h.Write([]byte{0})
		h.Write([]byte(s.SHA256))
		h.Write([]byte{'\n'})
	}
	return PromptReceipt{V: 1, Type: "prompt_receipt", Sections: sections, Digest: hex.EncodeToString(h.Sum(nil))}
}

// withoutContent returns a copy with every section's content removed, the
// form recorded in events and shown unless content is asked for.
func (r PromptReceipt) withoutContent() PromptReceipt {
	out := r
	out.Sections = make([]ReceiptSection, len(r.Sections))
	for i, s := range r.Sections {
		s.Content = ""
		out.Sections[i] = s
	}
	return out
}
