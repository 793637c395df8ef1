package agent

import (
	"context"

	"github.com/josecorral/fluzo/lib/store"
)

// admitStorage applies the [storage] quotas before any new mutating work:
// a store over its session_max_bytes, or a filesystem with less than
// min_free_bytes free, refuses the task with a clear reason. Nothing is
// ever evicted to make room (PRD §22.2).
func (w *Owner) admitStorage(ctx context.Context) error {
	q := store.Quota{
		SessionMaxBytes: w.Config.Int("storage.session_max_bytes"),
		WarnRatio:       store.DefaultQuota.WarnRatio,
		MinFreeBytes:    w.Config.Int("storage.min_free_bytes"),
	}
	st, err := w.Store.Admit(ctx, q)
	if err == nil && st.Warning {
		w.send(map[string]any{"v": 1, "type": "live.storage_warning", "used_bytes": st.UsedBytes,
			"limit_bytes": st.LimitBytes, "utilization": st.Utilization,
			"hint": "purge old sessions with 'fluzo history purge' or raise storage.session_max_bytes"})
	}
	return err
}
