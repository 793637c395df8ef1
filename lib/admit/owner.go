package admit

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/google/renameio/v2"
	"github.com/josecorral/fluzo/lib/core"
	"golang.org/x/sys/unix"
)

// Files in the .fluzodrive directory.
const (
	LockFile   = "owner.lock"
	RecordFile = "owner.json"
)

// ProtocolVersion is the control protocol version an owner records.
const ProtocolVersion = 1

// Owner states in the record.
const (
	OwnerRunning  = "running"
	OwnerReleased = "released"
	OwnerCrashed  = "crashed"
)

// OwnerRecord describes the process owning a workspace. It is
// information for humans and clients: the flock, not the PID, is proof of
// ownership, and a PID read from it is never signalled.
type OwnerRecord struct {
	V         int            `json:"v"`
	Instance  string         `json:"instance"`
	PID       int            `json:"pid"`
	StartedAt time.Time      `json:"started_at"`
	BootID    string         `json:"boot_id,omitempty"`
	Socket    string         `json:"socket,omitempty"`
	Protocol  int            `json:"protocol"`
	State     string         `json:"state"`
	EndedAt   *time.Time     `json:"ended_at,omitempty"`
	Previous  *PreviousOwner `json:"previous,omitempty"`
}

// PreviousOwner is what the new owner found in the record when it took
// over: a "running" record without a held lock means that owner crashed.
type PreviousOwner struct {
	Instance  string    `json:"instance"`
	PID       int       `json:"pid"`
	StartedAt time.Time `json:"started_at"`
	BootID    string    `json:"boot_id,omitempty"`
	State     string    `json:"state"`
	// SameBoot is false when the previous owner ran before a reboot.
	SameBoot bool `json:"same_boot"`
}

// OwnerOptions are recorded in the owner record.
type OwnerOptions struct {
	Socket   string
	Protocol int
}

// Owner is a held workspace ownership.
type Owner struct {
	Record OwnerRecord
	drive  string
	file   *os.File
}

// AcquireOwner takes exclusive ownership of the workspace whose private
// directory is drive (<workspace>/.fluzodrive, created and validated by
// the store). A second owner gets workspace_busy naming the current one.
// When the previous record says "running" but its lock is free, that
// owner crashed: the new record says so in Previous, so the caller
// reconciles its work; nothing is signalled.
func AcquireOwner(drive string, opts OwnerOptions) (*Owner, error) {
	if err := checkDrive(drive); err != nil {
		return nil, err
	}
	lockPath := filepath.Join(drive, LockFile)
	f, err := os.OpenFile(lockPath, os.O_RDWR|os.O_CREATE|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0o600)
	if err != nil {
		return nil, lockOpenError(err, lockPath, drive)
	}
	if err := tryLock(f); err != nil {
		f.Close()
		if errors.Is(err, unix.EWOULDBLOCK) {
			return nil, busy(drive)
		}
		return nil, core.Wrap(err, core.CodeStorageError, "cannot lock "+lockPath).
			WithHint("the filesystem must support flock(2)")
	}
	o := &Owner{drive: drive, file: f, Record: OwnerRecord{
		V: core.WireVersion, Instance: core.NewID(core.KindInstance), PID: os.Getpid(),
		StartedAt: time.Now().UTC(), BootID: BootID(), Socket: opts.Socket, Protocol: opts.Protocol, State: OwnerRunning,
	}}
	if o.Record.Protocol == 0 {
		o.Record.Protocol = ProtocolVersion
	}
	if prev, err := readRecord(drive); err == nil && prev.Instance != "" {
		state := prev.State
		if state != OwnerReleased {
			state = OwnerCrashed
		}
		o.Record.Previous = &PreviousOwner{Instance: prev.Instance, PID: prev.PID, StartedAt: prev.StartedAt,
			BootID: prev.BootID, State: state, SameBoot: prev.BootID == o.Record.BootID}
	}
	removeRecordTemps(drive)
	if err := writeRecord(drive, o.Record); err != nil {
		o.unlock()
		return nil, err
	}
	return o, nil
}

// removeRecordTemps deletes temporary record files left by an owner that
// died mid-write (renameio names them "."+RecordFile+digits). Only the
// lock holder writes the record, so none of them can be in use.
func removeRecordTemps(drive string) {
	ents, err := os.ReadDir(drive)
	if err != nil {
		return
	}
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), "."+RecordFile) && e.Type().IsRegular() {
			os.Remove(filepath.Join(drive, e.Name()))
		}
	}
}

// tryLock takes the exclusive lock without blocking, retrying briefly:
// a concurrent read-only status probe may hold a shared lock for an
// instant and must not make a real owner fail.
func tryLock(f *os.File) error {
	var err error
	for i := 0; i < 5; i++ {
		if err = unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB); !errors.Is(err, unix.EWOULDBLOCK) {
			return err
		}
		time.Sleep(10 * time.Millisecond)
	}
	return err
}

// LockFile is the open lock file whose flock makes this ownership (nil
// once released): a tool server given a duplicate keeps the lock held,
// should the owner die, until its commands are gone.
func (o *Owner) LockFile() *os.File { return o.file }

// Crashed reports whether the previous owner ended without releasing.
func (o *Owner) Crashed() bool {
	return o.Record.Previous != nil && o.Record.Previous.State == OwnerCrashed
}

// Release records a clean end and drops the lock.
func (o *Owner) Release() error {
	if o.file == nil {
		return nil
	}
	now := time.Now().UTC()
	o.Record.State, o.Record.EndedAt = OwnerReleased, &now
	err := writeRecord(o.drive, o.Record)
	o.unlock()
	return err
}

func (o *Owner) unlock() {
	unix.Flock(int(o.file.Fd()), unix.LOCK_UN)
	o.file.Close()
	o.file = nil
}

func busy(drive string) error {
	rec, err := readRecord(drive)
	if err != nil || rec.Instance == "" {
		return core.Errorf(core.CodeWorkspaceBusy, "another process owns this workspace (%s is locked)", filepath.Join(drive, LockFile)).
			WithHint("wait for it to finish; 'fluzo-admit lock status' shows the owner")
	}
	return core.Errorf(core.CodeWorkspaceBusy, "another process owns this workspace: instance %s (pid %d, started %s)",
		rec.Instance, rec.PID, rec.StartedAt.Format(time.RFC3339)).
		WithHint("wait for it to finish, or stop it through its own controls (fluzo-agent cancel); Fluzo never signals a PID from the record").
		With("instance", rec.Instance).With("pid", rec.PID).With("socket", rec.Socket)
}

// checkDrive refuses a missing or symlinked private directory.
func checkDrive(drive string) error {
	st, err := os.Lstat(drive)
	switch {
	case err != nil:
		return core.Wrap(err, core.CodeStorageError, "the private directory "+drive+" is missing").
			WithHint("open the workspace with fluzo first so that .fluzodrive is created")
	case st.Mode()&os.ModeSymlink != 0:
		return core.Errorf(core.CodeStorageError, "%s is a symbolic link", drive).
			WithHint(".fluzodrive is never followed through a symlink; replace it with a directory")
	case !st.IsDir():
		return core.Errorf(core.CodeStorageError, "%s is not a directory", drive)
	}
	return nil
}

func readRecord(drive string) (OwnerRecord, error) {
	var rec OwnerRecord
	f, err := os.OpenFile(filepath.Join(drive, RecordFile), os.O_RDONLY|unix.O_NOFOLLOW, 0)
	if err != nil {
		return rec, err
	}
	defer f.Close()
	err = json.NewDecoder(f).Decode(&rec)
	return rec, err
}

// writeRecord replaces the record atomically. The temporary file is made
// inside .fluzodrive itself (renameio would otherwise pick $TMPDIR when it
// is on the same filesystem), so an interrupted write leaves nothing in
// /tmp and its leftover is removed by the next owner.
func writeRecord(drive string, rec OwnerRecord) error {
	data, _ := json.Marshal(rec)
	path := filepath.Join(drive, RecordFile)
	if err := renameio.WriteFile(path, append(data, '\n'), 0o600, renameio.WithTempDir(drive)); err != nil {
		if errors.Is(err, unix.ENOSPC) || errors.Is(err, unix.EDQUOT) {
			return core.Wrap(err, core.CodeStorageError, "cannot write the owner record "+path+": the disk is full").
				WithHint("free space on the filesystem holding %s; nothing was started", drive)
		}
		return core.Wrap(err, core.CodeStorageError, "cannot write the owner record "+path).
			WithHint("check free space and permissions of %s", drive)
	}
	return nil
}

// BootID returns the kernel's boot identifier ("" when unavailable).
func BootID() string {
	data, err := os.ReadFile("/proc/sys/kernel/random/boot_id")
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(data))
}

// lockOpenError names why the lock could not be opened when the operating
// system says (a read-only mount is not a permissions problem, and the
// user must be sent to the mount, not to chmod).
func lockOpenError(err error, lockPath, drive string) *core.Error {
	msg := "cannot open " + lockPath
	if why := core.DescribeSystemError(err); why != "" {
		msg += ": " + why
	}
	e := core.Wrap(err, core.CodeStorageError, msg)
	if errors.Is(err, unix.EROFS) {
		return e.WithHint("the filesystem holding %s is mounted read-only; remount it read-write or work in a writable copy of the repository", drive)
	}
	return e.WithHint("check that %s is a private directory you own", drive)
}
