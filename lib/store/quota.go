package store

import (
	"context"
	"os"

	"github.com/josecorral/fluzo/lib/core"
	"golang.org/x/sys/unix"
)

// Quota holds the storage guardrails of PRD §22.2. They are admission
// thresholds checked before new mutating work, never hard limits and
// never a reason to evict anything.
type Quota struct {
	SessionMaxBytes int64   `json:"session_max_bytes"`
	WarnRatio       float64 `json:"warn_ratio"`
	MinFreeBytes    int64   `json:"min_free_bytes"`
}

// DefaultQuota: 10 GiB of session data and artifacts, a warning at 80 %,
// and 1 GiB kept free on the hosting filesystem.
var DefaultQuota = Quota{SessionMaxBytes: 10 << 30, WarnRatio: 0.8, MinFreeBytes: 1 << 30}

// Reasons carried in the "reason" detail of a quota refusal.
const (
	ReasonQuotaExceeded = "session_quota_exceeded"
	ReasonLowDiskSpace  = "low_disk_space"
)

// StorageStatus is the store's current use against a quota.
type StorageStatus struct {
	DatabaseBytes int64   `json:"database_bytes"`
	ArtifactBytes int64   `json:"artifact_bytes"`
	LabelBytes    int64   `json:"label_bytes"`
	UsedBytes     int64   `json:"used_bytes"`
	LimitBytes    int64   `json:"limit_bytes"`
	Utilization   float64 `json:"utilization"`
	Warning       bool    `json:"warning"`
	FreeBytes     int64   `json:"free_bytes"`
	MinFreeBytes  int64   `json:"min_free_bytes"`
}

// Storage measures the store: database files (with WAL), artifacts, the
// eval label log, and the free space of the filesystem holding .fluzodrive.
func (s *Store) Storage(ctx context.Context, q Quota) (StorageStatus, error) {
	st := StorageStatus{LimitBytes: q.SessionMaxBytes, MinFreeBytes: q.MinFreeBytes}
	for _, suffix := range []string{"", "-wal", "-shm"} {
		if fi, err := os.Lstat(s.ws.Database() + suffix); err == nil {
			st.DatabaseBytes += fi.Size()
		}
	}
	if err := s.q.QueryRowContext(ctx, "SELECT coalesce(sum(size), 0) FROM artifacts").Scan(&st.ArtifactBytes); err != nil {
		return st, storageErr(err, "cannot sum artifact sizes")
	}
	st.LabelBytes = labelBytes(s.ws)
	st.UsedBytes = st.DatabaseBytes + st.ArtifactBytes + st.LabelBytes
	if q.SessionMaxBytes > 0 {
		st.Utilization = float64(st.UsedBytes) / float64(q.SessionMaxBytes)
		st.Warning = st.Utilization >= q.WarnRatio
	}
	var fs unix.Statfs_t
	if err := unix.Statfs(s.ws.Drive(), &fs); err != nil {
		return st, storageErr(err, "cannot read free space of "+s.ws.Drive())
	}
	st.FreeBytes = int64(fs.Bavail) * int64(fs.Bsize)
	return st, nil
}

// Admit is the admission check run before new state-mutating work: it
// returns the status, and a storage_error naming the reason when the
// session quota is reached or the disk is nearly full. It deletes nothing.
func (s *Store) Admit(ctx context.Context, q Quota) (StorageStatus, error) {
	st, err := s.Storage(ctx, q)
	if err != nil {
		return st, err
	}
	return st, CheckQuota(st, q)
}

// CheckQuota applies q to a measured status.
func CheckQuota(st StorageStatus, q Quota) error {
	if q.SessionMaxBytes > 0 && st.UsedBytes >= q.SessionMaxBytes {
		return core.Errorf(core.CodeStorageError, "this repository's Fluzo data uses %s of its %s limit; new work is not admitted",
			FormatBytes(st.UsedBytes), FormatBytes(q.SessionMaxBytes)).
			WithHint("purge old sessions ('fluzo history list', 'fluzo history purge --session ID') or raise session_max_bytes in .fluzo; nothing is deleted automatically").
			With("reason", ReasonQuotaExceeded).With("used_bytes", st.UsedBytes).With("limit_bytes", q.SessionMaxBytes)
	}
	if q.MinFreeBytes > 0 && st.FreeBytes < q.MinFreeBytes {
		return core.Errorf(core.CodeStorageError, "only %s free on the filesystem holding .fluzodrive; %s must stay free",
			FormatBytes(st.FreeBytes), FormatBytes(q.MinFreeBytes)).
			WithHint("free disk space, purge history, or lower min_free_bytes in .fluzo").
			With("reason", ReasonLowDiskSpace).With("free_bytes", st.FreeBytes).With("min_free_bytes", q.MinFreeBytes)
	}
	return nil
}
