package config

import (
	"errors"
	"os"
	"path/filepath"
	"time"

	"github.com/google/renameio/v2"
	"github.com/josecorral/fluzo/lib/core"
)

// Draft is a set of edits to a loaded configuration. Saving applies only
// the edited keys onto the file as it is on disk at save time, so
// unrelated outside changes survive (PRD §26.1 amendment).
type Draft struct {
	base  *Config
	keys  []string
	edits map[string]any
}

// Edit starts a draft on c. c itself is never modified.
func (c *Config) Edit() *Draft { return &Draft{base: c, edits: map[string]any{}} }

// Set records key = value (command-line text), validating the key and the
// value on its own; combinations are validated at Save.
func (d *Draft) Set(key, text string) error {
	s, ok := Lookup(key)
	if !ok {
		return invalid([]Diagnostic{{Key: key, Problem: "unknown key", Valid: suggest(key)}})
	}
	v, problem := ParseValue(s, text)
	if problem != "" {
		return invalid([]Diagnostic{{Key: key, Problem: problem, Valid: s.ValidRange()}})
	}
	return d.SetValue(key, v)
}

// SetValue records key = v for a typed value (as returned by accessors).
func (d *Draft) SetValue(key string, v any) error {
	s, ok := Lookup(key)
	if !ok {
		return invalid([]Diagnostic{{Key: key, Problem: "unknown key", Valid: suggest(key)}})
	}
	cv, problem := coerce(s, normalize(v))
	if problem != "" {
		return invalid([]Diagnostic{{Key: key, Problem: problem, Valid: s.ValidRange()}})
	}
	if _, seen := d.edits[key]; !seen {
		d.keys = append(d.keys, key)
	}
	d.edits[key] = cv
	return nil
}

func normalize(v any) any {
	switch x := v.(type) {
	case int:
		return int64(x)
	case int32:
		return int64(x)
	case float32:
		return float64(x)
	}
	return v
}

// SaveResult reports a successful save.
type SaveResult struct {
	// Config is the new effective configuration as saved.
	Config *Config
	// OutsideChange is true when the file had changed since the draft's
	// base was loaded; the edits were applied on top of the new content.
	OutsideChange bool
}

// Save validates the edited file and replaces it atomically (temp file,
// fsync, rename). On any error the file and the base Config are unchanged.
func (d *Draft) Save() (*SaveResult, error) {
	path := d.base.Path
	if path == "" {
		return nil, core.Errorf(core.CodeConfigurationRequired, "this configuration was not loaded from a file").
			WithHint("run 'fluzo-admit config init' first")
	}
	current, snap, err := readFile(path)
	if err != nil {
		return nil, core.Wrap(err, core.CodeInvalidConfiguration, "cannot read "+path+" before saving").
			WithHint("check that the file exists and is readable; nothing was written")
	}
	text := string(current)
	for _, k := range d.keys {
		if text, err = setInText(text, k, FormatValue(d.edits[k])); err != nil {
			return nil, err
		}
	}
	cfg, err := Parse([]byte(text), path)
	if err != nil {
		return nil, err
	}
	if err := writeAtomic(path, []byte(text), snap); err != nil {
		return nil, err
	}
	_, cfg.loaded, err = readFile(path)
	if err != nil {
		return nil, core.Wrap(err, core.CodeStorageError, "saved "+path+" but cannot read it back").
			WithHint("check the file; the save may have completed")
	}
	return &SaveResult{Config: cfg, OutsideChange: !snap.Same(d.base.loaded)}, nil
}

// newPendingFile is renameio's temp-file constructor; tests running as
// root (where a read-only directory is still writable) replace it to
// inject the same failure.
var newPendingFile = renameio.NewPendingFile

// writeAtomic replaces path with data, keeping its permission bits. It
// refuses when the file changed again after it was read for this save.
func writeAtomic(path string, data []byte, read Snapshot) error {
	perm := os.FileMode(0o644)
	if st, err := os.Stat(path); err == nil {
		perm = st.Mode().Perm()
	}
	t, err := newPendingFile(path, renameio.WithPermissions(perm))
	if err != nil {
		return core.Wrap(err, core.CodeStorageError, "cannot create a temporary file beside "+path).
			WithHint("make %s writable; nothing was changed", filepath.Dir(path))
	}
	defer t.Cleanup()
	if _, err := t.Write(data); err != nil {
		return core.Wrap(err, core.CodeStorageError, "cannot write the new "+path+": "+osReason(err)).With("path", path).
			WithHint("check free disk space and the file-size limit (ulimit -f); nothing was changed")
	}
	if now, err := Probe(path); err != nil || !now.Same(read) {
		return core.Errorf(core.CodeInvalidConfiguration, "%s changed while it was being saved", path).
			WithHint("run the command again; nothing was changed")
	}
	if err := t.CloseAtomicallyReplace(); err != nil {
		return core.Wrap(err, core.CodeStorageError, "cannot replace "+path).WithHint("nothing was changed")
	}
	return nil
}

// Create publishes data as a new file at path without ever replacing an
// existing one (temp file, fsync, link, fsync directory): if the path
// appears meanwhile, creation fails with a conflict. A failed write (disk
// full, file-size limit) leaves no file at path.
func Create(path string, data []byte) error {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, ".fluzo-new-*")
	if err != nil {
		return core.Wrap(err, core.CodeStorageError, "cannot create a temporary file in "+dir).
			WithHint("make the directory writable")
	}
	defer os.Remove(tmp.Name())
	if err := writeDurably(tmp, data); err != nil {
		return core.Wrap(err, core.CodeStorageError, "cannot write "+path+": "+osReason(err)).With("path", path).
			WithHint("check free disk space and the file-size limit (ulimit -f); nothing was created")
	}
	if err := os.Link(tmp.Name(), path); err != nil {
		if errors.Is(err, os.ErrExist) {
			return core.Errorf(core.CodeConfirmationRequired, "%s already exists", path).
				WithHint("use --force to replace it (a backup is kept)")
		}
		return core.Wrap(err, core.CodeStorageError, "cannot create "+path).WithHint("nothing was created")
	}
	return syncDir(dir)
}

// osReason is the operating system's reason for a file error without the
// temporary file's name, which means nothing to the user.
func osReason(err error) string {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// writeDurably writes all of data to f, makes it world-readable, flushes it
// to disk and closes f, returning the first failure: a short write or a
// failed fsync must never be published as a complete file.
func writeDurably(f *os.File, data []byte) error {
	_, err := f.Write(data)
	if err == nil {
		err = f.Chmod(0o644)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// Replace writes data over an existing file after keeping an exact,
// exclusively named backup of its bytes beside it. It returns the backup
// path. Backup failure leaves the original untouched.
func Replace(path string, data []byte) (string, error) {
	old, snap, err := readFile(path)
	if err != nil {
		return "", core.Wrap(err, core.CodeStorageError, "cannot read "+path+" to back it up").
			WithHint("nothing was changed")
	}
	// Backups live in the runtime's private directory: beside the file
	// they would be a change in the working tree the next task reports as
	// pre-existing.
	dir := filepath.Join(filepath.Dir(path), ".fluzodrive", "backups")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", core.Wrap(err, core.CodeStorageError, "cannot create the backup directory "+dir+": "+osReason(err)).
			WithHint("nothing was changed")
	}
	base := filepath.Join(dir, filepath.Base(path)+".bak-"+time.Now().UTC().Format("20060102T150405Z"))
	backup := base
	for i := 1; ; i++ {
		err = Create(backup, old)
		if core.CodeOf(err) != core.CodeConfirmationRequired || i > 100 {
			break
		}
		backup = base + "-" + itoa(i)
	}
	if err != nil {
		return "", core.Wrap(err, core.CodeStorageError, "cannot write the backup "+backup).
			WithHint("nothing was changed")
	}
	if err := writeAtomic(path, data, snap); err != nil {
		return backup, err
	}
	return backup, nil
}

func itoa(i int) string { return formatInt(int64(i)) }

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return core.Wrap(err, core.CodeStorageError, "cannot open "+dir+" to sync it")
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return core.Wrap(err, core.CodeStorageError, "cannot sync "+dir).WithHint("the file may not be durable yet")
	}
	return nil
}

// Reset records key = its registry default ("Restore defaults").
func (d *Draft) Reset(key string) error {
	s, ok := Lookup(key)
	if !ok {
		return invalid([]Diagnostic{{Key: key, Problem: "unknown key", Valid: suggest(key)}})
	}
	return d.SetValue(key, copyValue(s.Default))
}
