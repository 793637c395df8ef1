package agent

import (
	"encoding/json"
	"os"
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
// current content under root.
func revalidate(root string, versions map[string]string) Revalidation {
	rv := Revalidation{Checked: len(versions), Stale: []StaleFile{}}
	for path, recorded := range versions {
		current := tools.Absent
		if data, err := os.ReadFile(filepath.Join(root, path)); err == nil {
			current = tools.Version(data)
		}
		if current != recorded {
			rv.Stale = append(rv.Stale, StaleFile{Path: path, Recorded: recorded, Current: current})
		}
	}
	sort.Slice(rv.Stale, func(i, j int) bool { return rv.Stale[i].Path < rv.Stale[j].Path })
	return rv
}
