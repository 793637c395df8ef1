package telemetry

import (
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/josecorral/fluzo/lib/core"
)

// PurgePlan lists what a local purge removes. Remote destinations are
// never touched: data already exported lives under the collector's and
// backends' own retention.
type PurgePlan struct {
	V       int      `json:"v"`
	Type    string   `json:"type"` // "telemetry.purge"
	Dir     string   `json:"dir"`
	Files   []string `json:"files"`
	Bytes   int64    `json:"bytes"`
	DryRun  bool     `json:"dry_run"`
	Removed int      `json:"removed"`
	Remote  string   `json:"remote"`
}

// RemoteNotice is stated by every purge: it never claims remote erasure.
const RemoteNotice = "local archive only; telemetry already exported to a collector or backend is not deleted and remains under that destination's retention"

// Purge removes the local archive's segments and health snapshot. With
// dryRun it only reports. It takes the archive's exclusive lock first and
// refuses (workspace_busy) while any process is writing telemetry.
func Purge(drive string, dryRun bool) (*PurgePlan, error) {
	dir := filepath.Join(drive, ArchiveDirName)
	plan := &PurgePlan{V: 1, Type: "telemetry.purge", Dir: dir, DryRun: dryRun, Remote: RemoteNotice, Files: []string{}}
	fi, err := os.Lstat(dir)
	if os.IsNotExist(err) {
		return plan, nil
	}
	if err != nil || fi.Mode()&os.ModeSymlink != 0 || !fi.IsDir() {
		return nil, core.Errorf(core.CodeStorageError, "%s is not a plain directory; refusing to purge through it", dir).
			WithHint("inspect it by hand; purge never follows symlinks")
	}
	lock, err := acquireExclusive(dir)
	if err != nil {
		return nil, err
	}
	defer lock.release()
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, core.Wrap(err, core.CodeStorageError, "cannot list "+dir)
	}
	for _, e := range ents {
		n := e.Name()
		if !e.Type().IsRegular() || !(strings.HasSuffix(n, ".jsonl") || n == HealthFileName) {
			continue
		}
		if info, err := e.Info(); err == nil {
			plan.Bytes += info.Size()
		}
		plan.Files = append(plan.Files, n)
	}
	sort.Strings(plan.Files)
	if dryRun {
		return plan, nil
	}
	for _, n := range plan.Files {
		if err := os.Remove(filepath.Join(dir, n)); err != nil && !os.IsNotExist(err) {
			return plan, core.Wrap(err, core.CodeStorageError, "cannot remove "+filepath.Join(dir, n)).
				WithHint("%d of %d files were removed; fix permissions and run purge again", plan.Removed, len(plan.Files))
		}
		plan.Removed++
	}
	return plan, nil
}
