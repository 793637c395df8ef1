package provider

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
)

// Model is one entry of GET /v1/models.
type Model struct {
	ID      string `json:"id"`
	OwnedBy string `json:"owned_by,omitempty"`
}

// Models lists the endpoint's models (discovery; never chargeable). It
// uses the header and total timeouts and never follows redirects.
func (c *Client) Models(ctx context.Context) ([]Model, error) {
	t := c.ep.Timeouts
	ctx, cancel := context.WithTimeoutCause(ctx, t.Total, &phaseError{class: ClassTimeoutTotal})
	defer cancel()
	actx, watch := startPhases(ctx, t, false)
	defer watch.stop()
	resp, err := c.send(actx, http.MethodGet, "/models", nil, false)
	if err != nil {
		return nil, typeFailure(actx, err, false)
	}
	defer resp.Body.Close()
	watch.headers()
	if err := c.checkStatus(resp); err != nil {
		return nil, err
	}
	body, err := io.ReadAll(io.LimitReader(touchReader{resp.Body, watch}, int64(c.ep.Limits.MaxLineBytes)+1))
	if err != nil {
		return nil, typeFailure(actx, err, false)
	}
	var list struct {
		Data []Model `json:"data"`
	}
	if len(body) > c.ep.Limits.MaxLineBytes || json.Unmarshal(body, &list) != nil {
		return nil, newError(ClassProtocol, "the model list is not a valid OpenAI-compatible /models answer")
	}
	for i, m := range list.Data {
		if m.ID == "" {
			return nil, newError(ClassProtocol, "model %d of the model list has no id", i).With("index", i)
		}
	}
	return list.Data, nil
}
