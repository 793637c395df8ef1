package config

import (
	"crypto/sha256"
	"errors"
	"io"
	"os"
	"syscall"
	"time"
)

// Snapshot identifies one version of a file on disk: identity (device,
// inode), size, modification time and content hash. Comparing snapshots
// detects outside changes by polling, without any new dependency.
type Snapshot struct {
	Exists  bool      `json:"exists"`
	Dev     uint64    `json:"dev,omitempty"`
	Ino     uint64    `json:"ino,omitempty"`
	Size    int64     `json:"size,omitempty"`
	ModTime time.Time `json:"mtime,omitempty"`
	SHA256  [32]byte  `json:"-"`
}

// Same reports whether two snapshots describe the same content at the
// same identity.
func (s Snapshot) Same(o Snapshot) bool {
	return s.Exists == o.Exists && s.Dev == o.Dev && s.Ino == o.Ino && s.Size == o.Size &&
		s.ModTime.Equal(o.ModTime) && s.SHA256 == o.SHA256
}

func readFile(path string) ([]byte, Snapshot, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, Snapshot{}, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, Snapshot{}, err
	}
	const maxConfigBytes = 4 << 20
	if st.Size() > maxConfigBytes {
		return nil, Snapshot{}, errTooLarge
	}
	data := make([]byte, st.Size())
	if _, err := io.ReadFull(f, data); err != nil {
		return nil, Snapshot{}, err
	}
	snap := Snapshot{Exists: true, Size: st.Size(), ModTime: st.ModTime(), SHA256: sha256.Sum256(data)}
	if sys, ok := st.Sys().(*syscall.Stat_t); ok {
		snap.Dev, snap.Ino = uint64(sys.Dev), sys.Ino
	}
	return data, snap, nil
}

// Probe returns the current snapshot of path. A missing file is a
// snapshot with Exists false; any other failure is an error, which callers
// must not report as an outside change.
func Probe(path string) (Snapshot, error) {
	_, snap, err := readFile(path)
	if os.IsNotExist(err) {
		return Snapshot{}, nil
	}
	return snap, err
}

// OutsideChange polls the file this configuration was loaded from and
// reports whether something else changed it since. A failed probe returns
// (false, err): it is never reported as a change.
func (c *Config) OutsideChange() (bool, error) {
	if c.Path == "" {
		return false, nil
	}
	now, err := Probe(c.Path)
	if err != nil {
		return false, err
	}
	return !now.Same(c.loaded), nil
}

var errTooLarge = errors.New("configuration file is larger than 4 MiB")

// Kinds of outside change, for the notice shown before the next save.
const (
	ChangeNone     = "none"
	ChangeModified = "modified" // same file, new content or metadata
	ChangeReplaced = "replaced" // another file now has the name (new inode)
	ChangeDeleted  = "deleted"
	ChangeCreated  = "created"
)

// ChangeKind classifies the difference between two snapshots of a path.
func ChangeKind(before, after Snapshot) string {
	switch {
	case before.Same(after):
		return ChangeNone
	case before.Exists && !after.Exists:
		return ChangeDeleted
	case !before.Exists && after.Exists:
		return ChangeCreated
	case before.Dev != after.Dev || before.Ino != after.Ino:
		return ChangeReplaced
	}
	return ChangeModified
}

// OutsideChangeKind polls like OutsideChange and says what kind of change
// happened (ChangeNone when nothing did). A failed probe is an error,
// never a change.
func (c *Config) OutsideChangeKind() (string, error) {
	if c.Path == "" {
		return ChangeNone, nil
	}
	now, err := Probe(c.Path)
	if err != nil {
		return ChangeNone, err
	}
	return ChangeKind(c.loaded, now), nil
}
