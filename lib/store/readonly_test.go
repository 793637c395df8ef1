package store

import (
	"errors"
	"io/fs"
	"os"
	"strings"
	"syscall"
	"testing"

	"github.com/josecorral/fluzo/lib/core"
	sqlite3 "github.com/mattn/go-sqlite3"
)

// A write refused by a read-only mount is named as such, with the path,
// in every shape the OS and SQLite report it (issue 13 item 6). The errno
// is injected: mounting a filesystem read-only needs privileges a test
// run does not have.
func TestReadOnlyFilesystemIsNamedWithItsPath(t *testing.T) {
	path := "/ws/.fluzodrive/artifacts/.tmp-1"
	cases := []struct {
		name, want string
		err        error
	}{
		{"open", "cannot write artifact: read-only file system: " + path, &fs.PathError{Op: "open", Path: path, Err: syscall.EROFS}},
		{"rename", "cannot move artifact into place: read-only file system: /ws/.fluzodrive/artifacts/ab/abcd", &os.LinkError{Op: "rename", Old: path, New: "/ws/.fluzodrive/artifacts/ab/abcd", Err: syscall.EROFS}},
		{"sqlite", "cannot commit: read-only file system", sqlite3.Error{Code: sqlite3.ErrReadonly, SystemErrno: syscall.EROFS}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			what, _, _ := strings.Cut(c.want, ": read-only")
			e := storageErr(c.err, what)
			if e.Code != core.CodeStorageError || e.Message != c.want {
				t.Fatalf("got %q (%s), want %q", e.Message, e.Code, c.want)
			}
			if !strings.Contains(e.Hint, "mounted read-only") || (c.name != "sqlite" && !errors.Is(e, syscall.EROFS)) {
				t.Fatalf("hint %q / cause lost for %v", e.Hint, c.err)
			}
		})
	}
	// A permission failure is not called read-only.
	if e := storageErr(&fs.PathError{Op: "open", Path: path, Err: syscall.EACCES}, "cannot write artifact"); strings.Contains(e.Message, "read-only") {
		t.Fatalf("EACCES described as %q", e.Message)
	}
}
