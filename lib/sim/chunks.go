package sim

import (
	"bytes"
	"encoding/json"
	"fmt"
	"unicode/utf8"

	"github.com/josecorral/fluzo/lib/core"
)

// chunkBuilder renders a Respond as Chat Completions stream chunks in the
// dialect its Fragment asks for.
type chunkBuilder struct {
	id, model string
	out       []string
}

func (b *chunkBuilder) add(choices []any, usage any) {
	c := map[string]any{
		"id": b.id, "object": "chat.completion.chunk", "created": 1767225600,
		"model": b.model, "choices": choices,
	}
	if usage != nil {
		c["usage"] = usage
	}
	raw, _ := core.MarshalVerbatim(c)
	b.out = append(b.out, string(raw))
}

func choice(delta map[string]any, finish any) []any {
	return []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}}
}

func usageObject(u *SimUsage) any {
	if u == nil {
		return nil
	}
	return map[string]any{"prompt_tokens": u.Input, "completion_tokens": u.Output, "total_tokens": u.Input + u.Output}
}

func finishReason(r *Respond) string {
	switch {
	case r.FinishReason != "":
		return r.FinishReason
	case len(r.ToolCalls) > 0:
		return "tool_calls"
	default:
		return "stop"
	}
}

// streamChunks returns the data payloads of a streamed answer, [DONE] last.
func streamChunks(id, model string, r *Respond) []string {
	b := &chunkBuilder{id: id, model: model}
	b.add(choice(map[string]any{"role": "assistant", "content": ""}, nil), nil)
	if r.Reasoning != "" {
		for _, p := range splitText(r.Reasoning, 16) {
			b.add(choice(map[string]any{"reasoning_content": p}, nil), nil)
		}
	}
	finish := finishReason(r)
	finishDone := false
	parts := splitText(r.Text, 16)
	for i, p := range parts {
		var fr any
		if r.Fragment.FinishWithContent && len(r.ToolCalls) == 0 && i == len(parts)-1 {
			fr, finishDone = finish, true
		}
		b.add(choice(map[string]any{"content": p}, fr), nil)
	}
	for i, tc := range r.ToolCalls {
		for _, d := range callDeltas(i, tc, r.Fragment) {
			b.add(choice(map[string]any{"tool_calls": []any{d}}, nil), nil)
		}
	}
	usageIn := r.UsageIn
	if usageIn == "" {
		usageIn = "finish"
	}
	var finishUsage any
	if usageIn == "finish" {
		finishUsage = usageObject(r.Usage)
	}
	if !finishDone {
		b.add(choice(map[string]any{}, finish), finishUsage)
	} else if finishUsage != nil {
		b.add([]any{}, finishUsage)
	}
	if usageIn == "separate" && r.Usage != nil {
		b.add([]any{}, usageObject(r.Usage))
	}
	return append(b.out, "[DONE]")
}

// callDeltas cuts one tool call into deltas per the fragment style.
func callDeltas(i int, tc SimToolCall, f Fragment) []map[string]any {
	args := callArguments(tc)
	id := tc.ID
	if id == "" {
		id = fmt.Sprintf("call_sim_%d", i)
	}
	fn := func(name, a string) map[string]any {
		m := map[string]any{"arguments": a}
		if name != "" {
			m["name"] = name
		}
		return m
	}
	whole := func(index int) []map[string]any {
		return []map[string]any{{"index": index, "id": id, "type": "function", "function": fn(tc.Name, args)}}
	}
	switch f.Style {
	case "whole":
		return whole(i)
	case "whole_index0":
		return whole(0)
	}
	size := f.Size
	if size <= 0 {
		size = 8
	}
	first := map[string]any{"id": id, "type": "function", "function": fn(tc.Name, "")}
	out := []map[string]any{first}
	for _, p := range splitText(args, size) {
		d := map[string]any{"function": map[string]any{"arguments": p}}
		if f.Style == "vllm" {
			d["id"], d["type"] = "", ""
		}
		out = append(out, d)
	}
	if f.Style != "no_index" {
		for _, d := range out {
			d["index"] = i
		}
	}
	return out
}

func callArguments(tc SimToolCall) string {
	if tc.RawArguments != nil {
		return *tc.RawArguments
	}
	if len(tc.Arguments) == 0 {
		return "{}"
	}
	var b bytes.Buffer
	if json.Compact(&b, tc.Arguments) != nil {
		return string(tc.Arguments)
	}
	return b.String()
}

// completion renders a non-streamed answer.
func completion(id, model string, r *Respond) []byte {
	msg := map[string]any{"role": "assistant", "content": r.Text}
	if r.Text == "" && len(r.ToolCalls) > 0 {
		msg["content"] = nil
	}
	if r.Reasoning != "" {
		msg["reasoning_content"] = r.Reasoning
	}
	var calls []any
	for i, tc := range r.ToolCalls {
		id := tc.ID
		if id == "" {
			id = fmt.Sprintf("call_sim_%d", i)
		}
		calls = append(calls, map[string]any{"id": id, "type": "function",
			"function": map[string]any{"name": tc.Name, "arguments": callArguments(tc)}})
	}
	if calls != nil {
		msg["tool_calls"] = calls
	}
	c := map[string]any{
		"id": id, "object": "chat.completion", "created": 1767225600, "model": model,
		"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": finishReason(r)}},
	}
	if r.Usage != nil && r.UsageIn != "none" {
		c["usage"] = usageObject(r.Usage)
	}
	raw, _ := core.MarshalVerbatim(c)
	return raw
}

// splitText cuts s into pieces of at most n bytes at rune boundaries.
func splitText(s string, n int) []string {
	var out []string
	for len(s) > 0 {
		k := min(n, len(s))
		for k < len(s) && !utf8.RuneStart(s[k]) {
			k++
		}
		out = append(out, s[:k])
		s = s[k:]
	}
	return out
}
