package store

import (
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// A writer's open ran PRAGMA quick_check, which reads every page: about
// 50 ms on the §49.2 large history (a 60 MB store), paid by every run
// before its first request. The check exists for a store damaged while
// nobody had it open cleanly — a writer killed mid-write, a disk or a
// program that wrote into the file. A writer that closes cleanly (its
// TRUNCATE checkpoint moved the whole log into the database) leaves a
// stamp of the database file beside it; the next writer's open takes the
// stamp away and skips the check only when the file is still exactly what
// the stamp describes and no log waits to be replayed. Any write through
// the file system changes its ctime, which no program can set back, so a
// file written since the stamp is checked; a writer killed after taking
// the stamp leaves none. What the stamp cannot see — bits that change
// under the file system — SQLite still reports as corruption when it
// reads them, and 'fluzo-store check' finds at any time.
const cleanStampName = "state.clean"

// fileStamp identifies one version of the database file.
type fileStamp struct {
	Dev   uint64 `json:"dev"`
	Ino   uint64 `json:"ino"`
	Size  int64  `json:"size"`
	Mtime int64  `json:"mtime_ns"`
	Ctime int64  `json:"ctime_ns"`
}

func (ws Workspace) cleanStampPath() string { return filepath.Join(ws.Drive(), cleanStampName) }

// stampOf reads path's identity without following a link.
func stampOf(path string) (fileStamp, error) {
	var st unix.Stat_t
	if err := unix.Lstat(path, &st); err != nil {
		return fileStamp{}, err
	}
	if st.Mode&unix.S_IFMT != unix.S_IFREG {
		return fileStamp{}, errors.New("not a regular file")
	}
	return fileStamp{Dev: uint64(st.Dev), Ino: st.Ino, Size: st.Size,
		Mtime: st.Mtim.Nano(), Ctime: st.Ctim.Nano()}, nil
}

// walEmpty reports whether the database has no log to replay.
func walEmpty(db string) bool {
	fi, err := os.Lstat(db + "-wal")
	return errors.Is(err, os.ErrNotExist) || (err == nil && fi.Mode().IsRegular() && fi.Size() == 0)
}

// takeCleanStamp removes the stamp (an open never leaves it behind, so a
// writer killed from here on leaves none) and reports whether it described
// the database file as it is now, with an empty log.
func takeCleanStamp(ws Workspace) bool {
	path := ws.cleanStampPath()
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_CLOEXEC|unix.O_NONBLOCK, 0)
	if err != nil {
		if !errors.Is(err, unix.ENOENT) {
			os.Remove(path)
		}
		return false
	}
	f := os.NewFile(uintptr(fd), path)
	data, rerr := io.ReadAll(io.LimitReader(f, 4096))
	f.Close()
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		// A stamp that cannot be taken away could outlive a crash: check.
		return false
	}
	var was fileStamp
	if rerr != nil || json.Unmarshal(data, &was) != nil {
		return false
	}
	now, err := stampOf(ws.Database())
	return err == nil && now == was && walEmpty(ws.Database())
}

// leaveCleanStamp writes the stamp of a database its writer has just
// closed whole. A stamp not written only costs the next open its check,
// so failures are ignored; the stamp is renamed into place complete.
func leaveCleanStamp(ws Workspace) {
	if !walEmpty(ws.Database()) {
		return
	}
	st, err := stampOf(ws.Database())
	if err != nil {
		return
	}
	data, err := json.Marshal(st)
	if err != nil {
		return
	}
	tmp, err := os.CreateTemp(ws.Drive(), cleanStampName+".new-*")
	if err != nil {
		return
	}
	_, werr := tmp.Write(data)
	if cerr := tmp.Close(); werr != nil || cerr != nil || os.Rename(tmp.Name(), ws.cleanStampPath()) != nil {
		os.Remove(tmp.Name())
	}
}
