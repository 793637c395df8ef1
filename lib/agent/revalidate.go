package agent

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"path/filepath"
	"sort"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/tools"
	"github.com/josecorral/fluzo/lib/tools/confine"
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
// current content under root, read through the confinement root without
// following symlinks (the recorded paths are the real ones the tools
// reported): a file since replaced by a link, a FIFO or a protected path
// reads as unreadable, hence stale, and nothing outside the root is read.
func revalidate(root string, versions map[string]string) Revalidation {
	rv := Revalidation{Checked: len(versions), Stale: []StaleFile{}}
	r, err := confine.Open(root, "")
	if err == nil {
		defer r.Close()
	}
	for path, recorded := range versions {
		current := unreadableVersion
		if r != nil {
			current = currentVersion(r, path)
		}
		if current != recorded {
			rv.Stale = append(rv.Stale, StaleFile{Path: path, Recorded: recorded, Current: current})
		}
	}
	sort.Slice(rv.Stale, func(i, j int) bool { return rv.Stale[i].Path < rv.Stale[j].Path })
	return rv
}

// unreadableVersion is the current version of a file that exists but
// cannot be read as a plain file beneath the root.
const unreadableVersion = "unreadable"

// currentVersion is tools.Version of the file's content (its SHA-256),
// hashed as it streams, or tools.Absent when it is gone.
func currentVersion(r *confine.Root, path string) string {
	f, _, err := r.OpenNoFollow(path)
	if err != nil {
		if core.CodeOf(err) == core.CodeNotFound {
			return tools.Absent
		}
		return unreadableVersion
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return unreadableVersion
	}
	return hex.EncodeToString(h.Sum(nil))
}
