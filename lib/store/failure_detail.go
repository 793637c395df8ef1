package store

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/josecorral/fluzo/lib/core"
)

// FailureDetail is what a task's events say about its failed provider
// requests and refused operations, which their rows do not keep.
type FailureDetail struct {
	Requests map[string]ProviderFailure // provider request id → its error
	Refused  map[string]Attempted       // operation id → what was attempted
}

// Attempted holds the arguments naming what a refused call touched.
type Attempted map[string]json.RawMessage

// String shows the arguments in a fixed order: "path \"x\" argv [...]".
func (a Attempted) String() string {
	var parts []string
	for _, k := range attemptedKeys {
		if v, ok := a[k]; ok {
			parts = append(parts, k+" "+string(v))
		}
	}
	return strings.Join(parts, " ")
}

// String shows "provider_error, HTTP 429, 1 attempt(s): message".
func (f ProviderFailure) String() string {
	parts := []string{string(f.Code)}
	if f.Status != nil {
		parts = append(parts, fmt.Sprintf("HTTP %v", f.Status))
	}
	if list, ok := f.Attempts.([]any); ok {
		parts = append(parts, fmt.Sprintf("%d attempt(s)", len(list)))
	}
	return strings.Join(parts, ", ") + ": " + f.Message
}

// TaskFailureDetail reads a task's provider.response and
// operation.decision events for their failure detail.
func (q Queries) TaskFailureDetail(ctx context.Context, task string) (FailureDetail, error) {
	fd := FailureDetail{Requests: map[string]ProviderFailure{}, Refused: map[string]Attempted{}}
	_, err := q.EachEvent(ctx, EventQuery{Task: task, Type: core.EvProviderResponse + "," + core.EvOperationDecision}, func(ev core.Event) error {
		var d struct {
			Request   string           `json:"request"`
			To        string           `json:"to"`
			Error     *ProviderFailure `json:"error"`
			Attempted Attempted        `json:"attempted"`
		}
		if json.Unmarshal(ev.Data, &d) != nil {
			return nil
		}
		switch {
		case ev.Type == core.EvProviderResponse && d.Error != nil:
			fd.Requests[d.Request] = *d.Error
		case ev.Type == core.EvOperationDecision && d.To == string(core.OpDenied) && len(d.Attempted) > 0:
			fd.Refused[ev.Operation] = d.Attempted
		}
		return nil
	})
	return fd, err
}
