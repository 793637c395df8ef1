package admit

import (
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"
)

// TestOwnerRecordTempNeverInTMPDIR watches $TMPDIR (an empty directory on
// the same filesystem as the drive, where renameio would put its temporary
// file) with inotify while an owner acquires and releases: nothing is ever
// created there, so a crash mid-write cannot leave litter in /tmp.
func TestOwnerRecordTempNeverInTMPDIR(t *testing.T) {
	base := t.TempDir()
	tmp := filepath.Join(base, "tmp")
	d := filepath.Join(base, ".fluzodrive")
	for _, dir := range []string{tmp, d} {
		if err := os.Mkdir(dir, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("TMPDIR", tmp)
	fd, err := unix.InotifyInit1(unix.IN_NONBLOCK | unix.IN_CLOEXEC)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(fd)
	if _, err := unix.InotifyAddWatch(fd, tmp, unix.IN_CREATE|unix.IN_MOVED_TO); err != nil {
		t.Fatal(err)
	}
	o, err := AcquireOwner(d, OwnerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := o.Release(); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 4096)
	if n, err := unix.Read(fd, buf); n > 0 {
		t.Fatalf("the owner record's temporary file was created in $TMPDIR (%d bytes of inotify events)", n)
	} else if err != unix.EAGAIN {
		t.Fatalf("reading inotify: %v", err)
	}
	if ents, _ := os.ReadDir(tmp); len(ents) > 0 {
		t.Fatalf("$TMPDIR holds %v", ents)
	}
}

// TestOwnerRemovesRecordTemps: a temporary record left by an owner that
// died mid-write is removed by the next owner; the record itself stays.
func TestOwnerRemovesRecordTemps(t *testing.T) {
	d := drive(t)
	left := filepath.Join(d, "."+RecordFile+"8211931")
	if err := os.WriteFile(left, []byte(`{"v":1,`), 0o600); err != nil {
		t.Fatal(err)
	}
	o, err := AcquireOwner(d, OwnerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer o.Release()
	if _, err := os.Lstat(left); !os.IsNotExist(err) {
		t.Fatalf("the leftover temporary record is still there (%v)", err)
	}
	if _, err := os.Stat(filepath.Join(d, RecordFile)); err != nil {
		t.Fatal(err)
	}
}
