package store

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/josecorral/fluzo/lib/core"
)

func TestOpenRefusesUntilExcluded(t *testing.T) {
	ctx := context.Background()
	ws, err := ResolveWorkspace(ctx, gitRepo(t))
	if err != nil {
		t.Fatal(err)
	}
	_, err = Open(ctx, ws)
	wantCode(t, err, core.CodeConfigurationRequired)
	if exists(ws.Drive()) {
		t.Fatal(".fluzodrive was created before git excluded it")
	}
	path, err := AddGitExclude(ctx, ws)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(path, filepath.Join(".git", "info", "exclude")) {
		t.Fatalf("exclude file = %s", path)
	}
	if again, err := AddGitExclude(ctx, ws); err != nil || again != "" {
		t.Fatalf("second AddGitExclude = %q, %v; want no change", again, err)
	}
	if exists(filepath.Join(ws.Root, ".gitignore")) {
		t.Fatal(".gitignore was created")
	}
	s, err := Open(ctx, ws)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if m := fileMode(t, ws.Drive()); m != 0o700 {
		t.Fatalf(".fluzodrive mode %o", m)
	}
	if m := fileMode(t, ws.Database()); m != 0o600 {
		t.Fatalf("state.sqlite3 mode %o", m)
	}
	if m := fileMode(t, ws.Database()+"-wal"); m != 0o600 {
		t.Fatalf("wal mode %o", m)
	}
	if !s.IdentityMatches() || s.Project().ID == "" {
		t.Fatalf("project identity not recorded: %+v", s.Project())
	}
}

func TestOpenRefusesTrackedDrive(t *testing.T) {
	ctx := context.Background()
	dir := gitRepo(t)
	os.MkdirAll(filepath.Join(dir, DriveName), 0o700)
	os.WriteFile(filepath.Join(dir, DriveName, "notes"), []byte("x"), 0o600)
	git(t, dir, "add", DriveName)
	ws, _ := ResolveWorkspace(ctx, dir)
	if _, err := AddGitExclude(ctx, ws); err != nil {
		t.Fatal(err)
	}
	_, err := Open(ctx, ws)
	wantCode(t, err, core.CodeConfigurationRequired)
	if !strings.Contains(core.AsError(err).Hint, "rm -r --cached") {
		t.Fatalf("hint does not give the repair: %v", core.AsError(err).Hint)
	}
	if exists(ws.Database()) {
		t.Fatal("database created inside a tracked .fluzodrive")
	}
}

func TestOpenRefusesSymlinkedDataRoot(t *testing.T) {
	ctx := context.Background()
	dir := gitRepo(t)
	elsewhere := t.TempDir()
	if err := os.Symlink(elsewhere, filepath.Join(dir, DriveName)); err != nil {
		t.Fatal(err)
	}
	ws, _ := ResolveWorkspace(ctx, dir)
	AddGitExclude(ctx, ws)
	_, err := Open(ctx, ws)
	wantCode(t, err, core.CodeStorageError)
	_, err = OpenReadOnly(ctx, ws)
	wantCode(t, err, core.CodeStorageError)
	if entries, _ := os.ReadDir(elsewhere); len(entries) != 0 {
		t.Fatalf("wrote through the symlink: %v", entries)
	}
}

func TestPragmasVerified(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	for _, p := range pragmaWant {
		var got string
		if err := s.DB().QueryRowContext(ctx, "PRAGMA "+p.name).Scan(&got); err != nil {
			t.Fatal(err)
		}
		if !strings.EqualFold(got, p.want) {
			t.Fatalf("pragma %s = %s, want %s", p.name, got, p.want)
		}
	}
}

func TestReadOnlyNeverCreates(t *testing.T) {
	ctx := context.Background()
	ws, _ := ResolveWorkspace(ctx, gitRepo(t))
	_, err := OpenReadOnly(ctx, ws)
	wantCode(t, err, core.CodeNotFound)
	if exists(ws.Drive()) {
		t.Fatal("read-only open created .fluzodrive")
	}
}

func TestNewerSchemaRefused(t *testing.T) {
	s, ws := openTemp(t)
	ctx := context.Background()
	if _, err := s.DB().ExecContext(ctx, "PRAGMA user_version = 99"); err != nil {
		t.Fatal(err)
	}
	s.Close()
	_, err := Open(ctx, ws)
	wantCode(t, err, core.CodeStorageError)
	_, err = OpenReadOnly(ctx, ws)
	wantCode(t, err, core.CodeStorageError)
}

func TestMigrationBacksUpFirst(t *testing.T) {
	s, ws := openTemp(t)
	ctx := context.Background()
	seedTask(t, s)
	s.Close()
	saved := migrations
	defer func() { migrations = saved }()
	migrations = append(append([]string{}, saved...), "CREATE TABLE later_feature (x INTEGER) STRICT;")
	s2, err := Open(ctx, ws)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	v, _ := userVersion(ctx, s2.DB())
	if v != len(migrations) {
		t.Fatalf("user_version = %d", v)
	}
	backups, _ := filepath.Glob(filepath.Join(ws.Drive(), BackupsDir, "state-v1-*.sqlite3"))
	if len(backups) != 1 {
		t.Fatalf("backups = %v", backups)
	}
	if m := fileMode(t, backups[0]); m != 0o600 {
		t.Fatalf("backup mode %o", m)
	}
	db, err := sql.Open(readerDriver, "file:"+backups[0]+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var n int
	if err := db.QueryRow("SELECT count(*) FROM tasks").Scan(&n); err != nil || n != 1 {
		t.Fatalf("backup tasks = %d, %v", n, err)
	}
}

func TestForeignDatabaseRefused(t *testing.T) {
	_, ws := openTemp(t)
	ctx := context.Background()
	os.Remove(ws.Database())
	os.Remove(ws.Database() + "-wal")
	os.Remove(ws.Database() + "-shm")
	db, _ := sql.Open(readerDriver, "file:"+ws.Database())
	db.Exec("CREATE TABLE someone_elses (x)")
	db.Close()
	_, err := Open(ctx, ws)
	wantCode(t, err, core.CodeStorageError)
}
