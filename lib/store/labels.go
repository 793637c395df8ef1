package store

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/josecorral/fluzo/lib/core"
	"golang.org/x/sys/unix"
)

// The eval label log lives in the data root beside the database: it is
// the one managed file the store does not write itself (fluzo-observe eval
// label appends to it), so the store owns its path and its safe I/O and
// check, stats and purge know it.
const (
	EvalDir    = "eval"
	LabelsName = "labels.jsonl"
)

// EvalDirPath returns the path of the eval directory.
func (w Workspace) EvalDirPath() string { return filepath.Join(w.Drive(), EvalDir) }

// LabelsPath returns the path of the append-only eval label log.
func (w Workspace) LabelsPath() string { return filepath.Join(w.EvalDirPath(), LabelsName) }

const dirOpenFlags = unix.O_RDONLY | unix.O_DIRECTORY | unix.O_NOFOLLOW | unix.O_CLOEXEC

// openEvalDir opens .fluzodrive/eval relative to a data root opened
// without following links, so neither level can be a planted symlink (the
// .fluzodrive rule: Fluzo never follows a link in its data root). With
// create it makes the directory 0700; an existing one is tightened to
// owner-only like every managed directory (readers change nothing). A
// missing directory is fs.ErrNotExist.
func openEvalDir(ws Workspace, create bool) (int, error) {
	exists, err := checkDataRoot(ws)
	if err != nil {
		return -1, err
	}
	if !exists {
		return -1, core.Wrap(os.ErrNotExist, core.CodeNotFound, "no data root at "+ws.Drive()).
			WithHint("run 'fluzo-store init' first")
	}
	root, err := unix.Open(ws.Drive(), dirOpenFlags, 0)
	if err != nil {
		return -1, linkErr(err, ws.Drive())
	}
	defer unix.Close(root)
	if create {
		if err := unix.Mkdirat(root, EvalDir, uint32(DirMode)); err != nil && !errors.Is(err, unix.EEXIST) {
			return -1, core.Wrap(err, core.CodeStorageError, "cannot create "+ws.EvalDirPath()).
				WithHint("check the permissions of .fluzodrive and free space")
		}
	}
	fd, err := unix.Openat(root, EvalDir, dirOpenFlags, 0)
	if errors.Is(err, unix.ENOENT) {
		return -1, os.ErrNotExist
	}
	if err != nil {
		return -1, linkErr(err, ws.EvalDirPath())
	}
	if create {
		if err := tightenMode(fd, ws.EvalDirPath(), DirMode); err != nil {
			unix.Close(fd)
			return -1, err
		}
	}
	return fd, nil
}

// openLabelsFile opens the label log inside an opened eval directory,
// refusing a symlink or anything but a regular file.
func openLabelsFile(dir int, ws Workspace, flags int) (*os.File, error) {
	fd, err := unix.Openat(dir, LabelsName, flags|unix.O_NOFOLLOW|unix.O_CLOEXEC, uint32(FileMode))
	if errors.Is(err, unix.ENOENT) {
		return nil, os.ErrNotExist
	}
	if err != nil {
		return nil, linkErr(err, ws.LabelsPath())
	}
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		unix.Close(fd)
		return nil, core.Wrap(err, core.CodeStorageError, "cannot inspect "+ws.LabelsPath())
	}
	if st.Mode&unix.S_IFMT != unix.S_IFREG {
		unix.Close(fd)
		return nil, core.Errorf(core.CodeStorageError, "%s is not a regular file", ws.LabelsPath()).
			WithHint("move it away; labels are kept in a plain file inside .fluzodrive/eval")
	}
	if flags&unix.O_CREAT != 0 {
		if err := tightenMode(fd, ws.LabelsPath(), FileMode); err != nil {
			unix.Close(fd)
			return nil, err
		}
	}
	return os.NewFile(uintptr(fd), ws.LabelsPath()), nil
}

// linkErr names a refused symlink (ELOOP from O_NOFOLLOW, ENOTDIR for a
// link or file where a directory belongs) as the typed storage error.
func linkErr(err error, path string) error {
	if errors.Is(err, unix.ELOOP) || errors.Is(err, unix.ENOTDIR) {
		return core.Errorf(core.CodeStorageError, "%s is a symbolic link or not a plain directory/file; Fluzo never follows a link in its data root", path).
			WithHint("remove it (rm %s); fluzo-observe eval label recreates it as a private directory", path)
	}
	return core.Wrap(err, core.CodeStorageError, "cannot open "+path).
		WithHint("check the permissions of .fluzodrive")
}

func tightenMode(fd int, path string, want os.FileMode) error {
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return core.Wrap(err, core.CodeStorageError, "cannot inspect "+path)
	}
	if os.FileMode(st.Mode).Perm() != want {
		if err := unix.Fchmod(fd, uint32(want)); err != nil {
			return core.Wrap(err, core.CodeStorageError, fmt.Sprintf("cannot make %s private (%o)", path, want))
		}
	}
	return nil
}

// lockedLabels opens (creating if asked) the label log and takes its
// exclusive lock. A rewrite (purge) replaces the file by rename while
// holding the old file's lock, so after locking the open file must still
// be the one at the path; otherwise it is reopened.
func lockedLabels(ws Workspace, create bool) (*os.File, int, error) {
	dir, err := openEvalDir(ws, create)
	if err != nil {
		return nil, -1, err
	}
	flags := unix.O_RDWR | unix.O_APPEND
	if create {
		flags |= unix.O_CREAT
	}
	// Each retry means a purge replaced the file in between, i.e. another
	// writer made progress; eight was too few for a burst of purges on a
	// loaded machine (a label was refused while nothing was wrong).
	for range 128 {
		f, err := openLabelsFile(dir, ws, flags)
		if err != nil {
			unix.Close(dir)
			return nil, -1, err
		}
		if err := unix.Flock(int(f.Fd()), unix.LOCK_EX); err != nil {
			f.Close()
			unix.Close(dir)
			return nil, -1, core.Wrap(err, core.CodeStorageError, "cannot lock "+ws.LabelsPath())
		}
		var open, named unix.Stat_t
		if unix.Fstat(int(f.Fd()), &open) == nil && unix.Fstatat(dir, LabelsName, &named, unix.AT_SYMLINK_NOFOLLOW) == nil &&
			open.Dev == named.Dev && open.Ino == named.Ino {
			return f, dir, nil
		}
		f.Close()
	}
	unix.Close(dir)
	return nil, -1, core.Errorf(core.CodeStorageError, "%s keeps being replaced while it is opened", ws.LabelsPath()).
		WithHint("retry when no other fluzo process is purging history")
}

// AppendEvalLabel appends one JSON record as a line to the label log under
// its exclusive lock, so concurrent labellers never interleave partial
// lines, and syncs it. The eval directory and file are created private.
func AppendEvalLabel(ws Workspace, record []byte) error {
	if !json.Valid(record) || bytes.ContainsAny(record, "\n\r") {
		return core.Errorf(core.CodeInternal, "an eval label must be one line of JSON")
	}
	f, dir, err := lockedLabels(ws, true)
	if err != nil {
		return err
	}
	defer unix.Close(dir)
	defer f.Close()
	line := append(record, '\n')
	// A line cut short by a crash must not swallow the next record.
	if fi, err := f.Stat(); err == nil && fi.Size() > 0 {
		last := make([]byte, 1)
		if _, err := f.ReadAt(last, fi.Size()-1); err == nil && last[0] != '\n' {
			line = append([]byte{'\n'}, line...)
		}
	}
	if _, err := f.Write(line); err != nil {
		return core.Wrap(err, core.CodeStorageError, "cannot write "+ws.LabelsPath())
	}
	if err := f.Sync(); err != nil {
		return core.Wrap(err, core.CodeStorageError, "cannot sync "+ws.LabelsPath())
	}
	return syncEvalDir(dir, ws)
}

// syncEvalDir makes a created or renamed label log durable in its directory.
func syncEvalDir(dir int, ws Workspace) error {
	if err := unix.Fsync(dir); err != nil {
		return core.Wrap(err, core.CodeStorageError, "cannot sync "+ws.EvalDirPath())
	}
	return nil
}

// ReadEvalLabels returns the label log's complete lines, oldest first. A
// missing log has none; an unterminated trailing line (an interrupted
// write) is left out.
func ReadEvalLabels(ws Workspace) ([][]byte, error) {
	data, err := readLabelsFile(ws)
	if err != nil || data == nil {
		return nil, err
	}
	return completeLines(data), nil
}

func readLabelsFile(ws Workspace) ([]byte, error) {
	f, err := openLabelsReadOnly(ws)
	if err != nil || f == nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(f)
	if err != nil {
		return nil, core.Wrap(err, core.CodeStorageError, "cannot read "+ws.LabelsPath())
	}
	return data, nil
}

func completeLines(data []byte) [][]byte {
	var out [][]byte
	for len(data) > 0 {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			break
		}
		if line := bytes.TrimSpace(data[:i]); len(line) > 0 {
			out = append(out, line)
		}
		data = data[i+1:]
	}
	return out
}

// labelObservation is the one field of a label record the store reads:
// the observation it labels.
func labelObservation(line []byte) string {
	var l struct {
		Observation string `json:"observation"`
	}
	if json.Unmarshal(line, &l) != nil {
		return ""
	}
	return l.Observation
}

// pruneLabels rewrites the label log without the labels of observations
// that are no longer stored (their session was purged), and returns how
// many it removed. live is read while the log is locked, so a label
// appended for an observation that exists is never lost. Undecodable lines
// are kept: they are not the purge's to judge. The new log replaces the
// old by rename after an fsync, so a crash leaves one or the other.
func pruneLabels(ws Workspace, live func() (map[string]bool, error)) (int, error) {
	f, dir, err := lockedLabels(ws, false)
	if errors.Is(err, os.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	defer unix.Close(dir)
	defer f.Close()
	obs, err := live()
	if err != nil {
		return 0, err
	}
	data, err := io.ReadAll(f)
	if err != nil {
		return 0, core.Wrap(err, core.CodeStorageError, "cannot read "+ws.LabelsPath())
	}
	var kept bytes.Buffer
	removed := 0
	for _, line := range completeLines(data) {
		if id := labelObservation(line); id != "" && !obs[id] {
			removed++
			continue
		}
		kept.Write(line)
		kept.WriteByte('\n')
	}
	if removed == 0 {
		return 0, nil
	}
	return removed, replaceLabels(dir, ws, kept.Bytes())
}

func replaceLabels(dir int, ws Workspace, data []byte) error {
	tmp := fmt.Sprintf(".%s.tmp-%d", LabelsName, os.Getpid())
	fd, err := unix.Openat(dir, tmp, unix.O_WRONLY|unix.O_CREAT|unix.O_TRUNC|unix.O_NOFOLLOW|unix.O_CLOEXEC, uint32(FileMode))
	if err != nil {
		return linkErr(err, filepath.Join(ws.EvalDirPath(), tmp))
	}
	f := os.NewFile(uintptr(fd), tmp)
	_, werr := f.Write(data)
	if werr == nil {
		werr = f.Sync()
	}
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = unix.Renameat(dir, tmp, dir, LabelsName)
	}
	if werr != nil {
		unix.Unlinkat(dir, tmp, 0)
		return core.Wrap(werr, core.CodeStorageError, "cannot rewrite "+ws.LabelsPath()).
			WithHint("check free space; the previous label log is intact")
	}
	return syncEvalDir(dir, ws)
}

// openLabelsReadOnly opens the label log for reading; a missing log is
// (nil, nil).
func openLabelsReadOnly(ws Workspace) (*os.File, error) {
	dir, err := openEvalDir(ws, false)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer unix.Close(dir)
	f, err := openLabelsFile(dir, ws, unix.O_RDONLY)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	return f, err
}

// labelBytes is the label log's size; a missing or unsafe log counts 0
// (check reports an unsafe one).
func labelBytes(ws Workspace) int64 {
	f, err := openLabelsReadOnly(ws)
	if err != nil || f == nil {
		return 0
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return 0
	}
	return fi.Size()
}
