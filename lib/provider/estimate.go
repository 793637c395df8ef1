package provider

// EstimateTokens is the documented local estimate of a text's tokens:
// one token per 3 UTF-8 bytes, rounded up. Real tokenizers average closer
// to 4 bytes per token for English and code, so this errs on the side of
// counting more, as budget checks must.
func EstimateTokens(bytes int) int64 {
	if bytes <= 0 {
		return 0
	}
	return int64((bytes + 2) / 3)
}

// perMessageOverhead covers role markers and separators of chat templates.
const perMessageOverhead = 4

// EstimateUsage estimates the input tokens of req (messages and tool
// schemas) and, when resp is non-nil, the output tokens of resp.
func EstimateUsage(req *Request, resp *Response) Usage {
	in := int64(0)
	for _, m := range req.Messages {
		n := len(m.Content) + len(m.ToolCallID)
		for _, tc := range m.ToolCalls {
			n += len(tc.ID) + len(tc.Name) + len(tc.Arguments)
		}
		in += EstimateTokens(n) + perMessageOverhead
	}
	for _, t := range req.Tools {
		in += EstimateTokens(len(t.Name) + len(t.Description) + len(t.Parameters))
	}
	u := Usage{Input: &in, Source: UsageEstimated}
	if resp != nil {
		n := len(resp.Content) + len(resp.Reasoning)
		for _, tc := range resp.ToolCalls {
			n += len(tc.ID) + len(tc.Name) + len(tc.Arguments)
		}
		out := EstimateTokens(n)
		u.Output = &out
	}
	return u
}
