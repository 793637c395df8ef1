package agent

import (
	"context"
	"encoding/json"
	"path/filepath"
	"sort"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/tools"
)

// StaleFile is a file whose content no longer matches the version an
// earlier attempt last saw or wrote.
type StaleFile struct {
	Path     string `json:"path"`
	Recorded string `json:"recorded_version"`
	Current  string `json:"current_version"` // "absent" when the file is gone
}

// Revalidation is the durable outcome of checking file versions on resume.
type Revalidation struct {
	Checked int         `json:"checked"`
	Stale   []StaleFile `json:"stale"`
}

// fileVersionTools are the tools whose result names a file and the
// version the attempt saw (view) or left (write, edit).
var fileVersionTools = map[string]bool{"view": true, "write": true, "edit": true}

// noteFileVersion records the version a succeeded file operation reports
// in versions (path → last known version).
func noteFileVersion(versions map[string]string, o core.Operation) {
	if o.State != core.OpSucceeded || !fileVersionTools[o.Tool] {
		return
	}
	var out struct {
		Result struct {
			Path    string `json:"path"`
			Version string `json:"version"`
		} `json:"result"`
	}
	if json.Unmarshal(o.Result, &out) != nil || out.Result.Version == "" || !filepath.IsLocal(out.Result.Path) {
		return
	}
	versions[filepath.Clean(out.Result.Path)] = out.Result.Version
}

// revalidate compares the last known version of each file with its
// current content in the backend's tree (the file_versions query reads
// them beneath its confinement without following symlinks: a file since
// replaced by a link, a FIFO or a protected path reads as unreadable,
// hence stale). A backend that cannot answer makes every file stale.
func revalidate(ctx context.Context, q querier, versions map[string]string) Revalidation {
	rv := Revalidation{Checked: len(versions), Stale: []StaleFile{}}
	args := tools.FileVersionsArgs{Paths: make([]string, 0, len(versions))}
	for path := range versions {
		args.Paths = append(args.Paths, path)
	}
	var now tools.FileVersions
	if err := q.Query(ctx, tools.QueryFileVersions, args, &now); err != nil {
		now.Versions = nil
	}
	for path, recorded := range versions {
		current, ok := now.Versions[path]
		if !ok {
			current = tools.UnreadableVersion
		}
		if current != recorded {
			rv.Stale = append(rv.Stale, StaleFile{Path: path, Recorded: recorded, Current: current})
		}
	}
	sort.Slice(rv.Stale, func(i, j int) bool { return rv.Stale[i].Path < rv.Stale[j].Path })
	return rv
}
