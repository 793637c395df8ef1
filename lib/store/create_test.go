package store

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/binary"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/josecorral/fluzo/lib/core"
)

// excludedWorkspace is a fresh repository with .fluzodrive excluded and
// created, but no store yet.
func excludedWorkspace(t *testing.T) Workspace {
	t.Helper()
	ctx := context.Background()
	ws := excludedRepo(t)
	if err := EnsureDrive(ctx, ws); err != nil {
		t.Fatal(err)
	}
	return ws
}

// TestCrashDuringCreation kills a child process at the last instant of
// store creation (schema built, not yet renamed): no state.sqlite3 exists
// afterwards, and the next Open removes the leftover and creates a
// complete store.
func TestCrashDuringCreation(t *testing.T) {
	if dir := os.Getenv("FLUZO_TEST_CRASH_CREATE"); dir != "" {
		beforeRename = func(string) { syscall.Kill(os.Getpid(), syscall.SIGKILL) }
		ws, err := ResolveWorkspace(context.Background(), dir)
		if err == nil {
			_, err = Open(context.Background(), ws)
		}
		t.Fatalf("Open returned (%v) instead of reaching the rename", err)
	}
	ws := excludedWorkspace(t)
	cmd := exec.Command(os.Args[0], "-test.run=^TestCrashDuringCreation$")
	cmd.Env = append(os.Environ(), "FLUZO_TEST_CRASH_CREATE="+ws.Root)
	out, err := cmd.CombinedOutput()
	if st, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !st.Signaled() || st.Signal() != syscall.SIGKILL {
		t.Fatalf("child was not killed at the rename (err %v):\n%s", err, out)
	}
	if _, err := os.Lstat(ws.Database()); !os.IsNotExist(err) {
		t.Fatalf("a crash during creation left %s (err %v); want no file", ws.Database(), err)
	}
	if n := len(creatingLeftovers(t, ws)); n == 0 {
		t.Fatal("the crashed creation left no temporary file; the kill happened elsewhere")
	}
	s, err := Open(context.Background(), ws)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if v, _ := userVersion(context.Background(), s.db); v != SchemaVersion {
		t.Fatalf("user_version = %d after recovery, want %d", v, SchemaVersion)
	}
	if left := creatingLeftovers(t, ws); len(left) > 0 {
		t.Fatalf("leftovers of the crashed creation remain: %v", left)
	}
}

func creatingLeftovers(t *testing.T, ws Workspace) []string {
	t.Helper()
	m, err := filepath.Glob(ws.Database() + creatingInfix + "*")
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestSchemalessLeftoverRebuilt covers the files an older build's crash
// leaves: empty, zero-filled, and an empty WAL-mode database (one 4096-byte
// page). Each holds no data and is rebuilt into a complete store.
func TestSchemalessLeftoverRebuilt(t *testing.T) {
	cases := map[string]func(t *testing.T, path string){
		"empty":  func(t *testing.T, path string) { writeFile(t, path, nil) },
		"zeroes": func(t *testing.T, path string) { writeFile(t, path, make([]byte, 4096)) },
		"empty_wal_database": func(t *testing.T, path string) {
			db := rawDB(t, path)
			if _, err := db.Exec("PRAGMA journal_mode=WAL"); err != nil {
				t.Fatal(err)
			}
			db.Close()
			if fi, err := os.Stat(path); err != nil || fi.Size() != 4096 {
				t.Fatalf("setup: want a 4096-byte database, got %v %v", fi, err)
			}
		},
	}
	for name, make := range cases {
		t.Run(name, func(t *testing.T) {
			ws := excludedWorkspace(t)
			make(t, ws.Database())
			s, err := Open(context.Background(), ws)
			if err != nil {
				t.Fatalf("Open of a schema-less %s file: %v", name, err)
			}
			defer s.Close()
			if v, _ := userVersion(context.Background(), s.db); v != SchemaVersion {
				t.Fatalf("user_version = %d, want %d", v, SchemaVersion)
			}
		})
	}
}

// TestLeftoverWithDataKept: tables committed only to the WAL (the main
// file is a single schema-less page) count as data; the file is not
// discarded but refused as a foreign database.
func TestLeftoverWithDataKept(t *testing.T) {
	ws := excludedWorkspace(t)
	src := filepath.Join(t.TempDir(), "src.sqlite3")
	db := rawDB(t, src)
	db.SetMaxOpenConns(1)
	for _, q := range []string{"PRAGMA journal_mode=WAL", "PRAGMA wal_autocheckpoint=0", "CREATE TABLE notes(x)", "INSERT INTO notes VALUES ('keep me')"} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	// Copy while the connection is open, so the WAL still holds the table.
	for _, suffix := range []string{"", "-wal"} {
		data, err := os.ReadFile(src + suffix)
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, ws.Database()+suffix, data)
	}
	db.Close()
	_, err := Open(context.Background(), ws)
	wantCode(t, err, core.CodeStorageError)
	if !strings.Contains(err.Error(), "holds tables but no Fluzo schema version") {
		t.Fatalf("error = %v", err)
	}
	check := rawDB(t, ws.Database())
	defer check.Close()
	var x string
	if err := check.QueryRow("SELECT x FROM notes").Scan(&x); err != nil || x != "keep me" {
		t.Fatalf("the data in the WAL was lost: %q %v", x, err)
	}
}

// TestForeignFileRefused: a file that is not SQLite is refused, untouched.
func TestForeignFileRefused(t *testing.T) {
	ws := excludedWorkspace(t)
	junk := []byte(strings.Repeat("not a database\n", 300))
	writeFile(t, ws.Database(), junk)
	_, err := Open(context.Background(), ws)
	wantCode(t, err, core.CodeStorageError)
	if !strings.Contains(err.Error(), "is damaged") || !strings.Contains(core.AsError(err).Hint, "fluzo-store check") {
		t.Fatalf("error = %v (hint %q)", err, core.AsError(err).Hint)
	}
	if got, _ := os.ReadFile(ws.Database()); string(got) != string(junk) {
		t.Fatal("the foreign file was changed")
	}
}

func writeFile(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.WriteFile(path, data, FileMode); err != nil {
		t.Fatal(err)
	}
}

func rawDB(t *testing.T, path string) *sql.DB {
	t.Helper()
	db, err := sql.Open(readerDriver, path)
	if err != nil {
		t.Fatal(err)
	}
	return db
}

// A database whose header carries a schema version is a store: the
// existence probe takes it as one from the header alone (no SQLite open
// and close on every owner start), and a damaged body is still refused by
// the open's quick check — never discarded as an empty leftover.
func TestVersionedHeaderIsAStoreWithoutOpeningIt(t *testing.T) {
	ws := excludedWorkspace(t)
	page := make([]byte, 4096)
	copy(page, sqliteMagic)
	binary.BigEndian.PutUint32(page[60:64], 3)
	body := append(page, []byte(strings.Repeat("torn page ", 800))...)
	writeFile(t, ws.Database(), body)
	empty, err := holdsNothing(context.Background(), ws.Database(), int64(len(body)))
	if err != nil || empty {
		t.Fatalf("holdsNothing = %v, %v; want a store (false) judged from its header, with no SQLite error", empty, err)
	}
	_, err = Open(context.Background(), ws)
	wantCode(t, err, core.CodeStorageError)
	if got, _ := os.ReadFile(ws.Database()); !bytes.Equal(got, body) {
		t.Fatal("the damaged store was changed")
	}
}
