package agent

import (
	"context"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/store"
)

// ProviderFailed settles a provider request that ended in an error,
// keeping the error's code, HTTP status, message and attempts in the
// provider.response event.
func (j *storeJournal) ProviderFailed(ctx context.Context, refs Refs, id, state string, cause error) error {
	fe := core.AsError(cause)
	f := store.ProviderFailure{Code: fe.Code, Status: fe.Details["status"], Message: fe.Message, Attempts: fe.Details["attempts"]}
	return j.write(ctx, refs, func(tx *store.Tx, add func(core.Event, error) error) error {
		_, ev, err := tx.FailProviderRequest(id, core.SlotState(state), &store.Usage{Source: "unknown"}, f)
		return add(ev, err)
	})
}
