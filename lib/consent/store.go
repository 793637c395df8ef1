package consent

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/google/renameio/v2"
	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/store"
)

// DefaultDir returns ${XDG_STATE_HOME:-~/.local/state}/fluzo/consent.
func DefaultDir() string {
	base := os.Getenv("XDG_STATE_HOME")
	if base == "" {
		home, _ := os.UserHomeDir()
		base = filepath.Join(home, ".local", "state")
	}
	return filepath.Join(base, "fluzo", "consent")
}

// How consent was given, recorded for the audit trail.
const (
	HowPrompt = "prompt" // interactive fluzo-admit consent grant
	HowYes    = "yes"    // fluzo-admit consent grant --yes
	HowFlag   = "flag"   // fluzo-agent run/serve --consent
	HowDemo   = "demo"   // fluzo demo, for its own simulator, in its own state
)

// Record is one stored consent: this workspace, this fingerprint.
type Record struct {
	V           int             `json:"v"`
	Type        string          `json:"type"`
	Workspace   store.Workspace `json:"workspace"`
	Fingerprint string          `json:"fingerprint"`
	GrantedAt   string          `json:"granted_at"`
	How         string          `json:"how"`
	Summary     Summary         `json:"summary"`
	// Cleartext lists the non-loopback plain-HTTP URLs accepted with the
	// warned exception.
	Cleartext []string `json:"cleartext_exceptions"`
}

// Allows reports whether rec accepted the plain-HTTP exception for the
// destination url (compared in its redacted form, as it was shown).
func (r Record) Allows(url string) bool {
	url = redact(url)
	for _, u := range r.Cleartext {
		if u == url {
			return true
		}
	}
	return false
}

// Store is the consent directory.
type Store struct{ Dir string }

// workspaceDir is one directory per workspace identity: the resolved root
// and its device and inode, so a moved or re-created workspace asks again.
func (s Store) workspaceDir(ws store.Workspace) string {
	h := sha256.Sum256(fmt.Appendf(nil, "%s\x00%d\x00%d", ws.Root, ws.Dev, ws.Inode))
	return filepath.Join(s.Dir, hex.EncodeToString(h[:12]))
}

func (s Store) recordPath(ws store.Workspace, fingerprint string) string {
	return filepath.Join(s.workspaceDir(ws), strings.TrimPrefix(fingerprint, "sha256:")+".json")
}

// Lookup returns the consent for ws and fingerprint, if recorded. A record
// whose content names another workspace or fingerprint (a file copied in
// from elsewhere) is not consent.
func (s Store) Lookup(ws store.Workspace, fingerprint string) (Record, bool, error) {
	path := s.recordPath(ws, fingerprint)
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return Record{}, false, nil
	}
	if err != nil {
		return Record{}, false, core.Wrap(err, core.CodeConfigurationRequired, "cannot read the consent record "+path).
			WithHint("check the permissions of %s", s.Dir)
	}
	var rec Record
	if json.Unmarshal(data, &rec) != nil || rec.Fingerprint != fingerprint || rec.Workspace != ws {
		return Record{}, false, nil
	}
	return rec, true, nil
}

// List returns every consent recorded for ws, newest first.
func (s Store) List(ws store.Workspace) ([]Record, error) {
	dir := s.workspaceDir(ws)
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, core.Wrap(err, core.CodeConfigurationRequired, "cannot read "+dir).WithHint("check its permissions")
	}
	var out []Record
	for _, e := range entries {
		fp, ok := strings.CutSuffix(e.Name(), ".json")
		if !ok {
			continue
		}
		if rec, ok, _ := s.Lookup(ws, "sha256:"+fp); ok {
			out = append(out, rec)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].GrantedAt > out[j].GrantedAt })
	return out, nil
}

// write publishes rec atomically (temp file, fsync, rename) with owner-only
// permissions, so a crash never leaves half a record that reads as consent.
func (s Store) write(rec Record) error {
	dir := s.workspaceDir(rec.Workspace)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return core.Wrap(err, core.CodeConfigurationRequired, "cannot create the consent directory "+dir).
			WithHint("check that %s is writable", s.Dir)
	}
	for _, d := range []string{s.Dir, dir} {
		_ = os.Chmod(d, 0o700)
	}
	data, _ := json.Marshal(rec)
	path := s.recordPath(rec.Workspace, rec.Fingerprint)
	if err := renameio.WriteFile(path, append(data, '\n'), 0o600); err != nil {
		return core.Wrap(err, core.CodeConfigurationRequired, "cannot write the consent record "+path).
			WithHint("check that %s is writable", dir)
	}
	return nil
}

// Revoke removes every consent recorded for ws and returns how many.
func (s Store) Revoke(ws store.Workspace) (int, error) {
	recs, err := s.List(ws)
	if err != nil {
		return 0, err
	}
	if err := os.RemoveAll(s.workspaceDir(ws)); err != nil {
		return 0, core.Wrap(err, core.CodeConfigurationRequired, "cannot remove the consent records of "+ws.Root).
			WithHint("check the permissions of %s", s.Dir)
	}
	return len(recs), nil
}

func now() string { return time.Now().UTC().Format(time.RFC3339Nano) }
