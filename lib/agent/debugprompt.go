package agent

import (
	"context"
	"encoding/json"
	"io"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/store"
)

// PromptReceiptOf returns the prompt receipt of a task's latest attempt
// from the store, read-only. With content, the sections' text is read
// from the receipt's artifact.
func PromptReceiptOf(ctx context.Context, s *store.Store, task string, content bool) (PromptReceipt, error) {
	if _, err := s.GetTask(ctx, task); err != nil {
		return PromptReceipt{}, err
	}
	var last *receiptEvent
	q := store.EventQuery{Task: task, Type: core.EvPromptReceipt}
	_, err := s.EachEvent(ctx, q, func(ev core.Event) error {
		var r receiptEvent
		if err := json.Unmarshal(ev.Data, &r); err != nil {
			return core.Wrap(err, core.CodeStorageError, "the stored prompt receipt of "+task+" is not readable")
		}
		last = &r
		return nil
	})
	if err != nil {
		return PromptReceipt{}, err
	}
	if last == nil {
		return PromptReceipt{}, core.Errorf(core.CodeNotFound, "task %s has no prompt receipt", task).
			WithHint("the task never started an attempt")
	}
	if !content {
		return last.PromptReceipt, nil
	}
	f, err := s.OpenArtifact(last.Artifact)
	if err != nil {
		return PromptReceipt{}, err
	}
	defer f.Close()
	data, err := io.ReadAll(f)
	if err != nil {
		return PromptReceipt{}, core.Wrap(err, core.CodeStorageError, "cannot read the prompt receipt artifact")
	}
	var full PromptReceipt
	if err := json.Unmarshal(data, &full); err != nil {
		return PromptReceipt{}, core.Wrap(err, core.CodeStorageError, "the prompt receipt artifact is not readable")
	}
	return full, nil
}
