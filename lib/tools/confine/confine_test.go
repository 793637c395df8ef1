package confine

import (
	"net"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

func TestReadsInsideTheRoot(t *testing.T) {
	f := newFixture(t)
	for p, want := range map[string]string{
		"file.txt": "hello\n", "sub/inner.txt": "inner\n", "in": "inner\n", "subln/inner.txt": "inner\n",
		"sub/../file.txt": "hello\n", "./file.txt": "hello\n", filepath.Join(f.ws, "file.txt"): "hello\n", "self/file.txt": "hello\n",
	} {
		got, err := f.read(p)
		if err != nil || got != want {
			t.Errorf("read %q = %q, %v; want %q", p, got, err, want)
		}
	}
}

func TestEscapesAreRefused(t *testing.T) {
	f := newFixture(t)
	for _, p := range []string{"../outside/secret.txt", "sub/../../outside/secret.txt", "out", "outdir/secret.txt",
		filepath.Join(f.out, "secret.txt"), "/etc/passwd", "abs", "proc/etc/passwd"} {
		_, err := f.read(p)
		wantCode(t, err, CodeOutsideRoot, "read "+p)
		wantCode(t, f.write(p, "pwned"), CodeOutsideRoot, "write "+p)
	}
	wantCode(t, f.write("outdir/new.txt", "pwned"), CodeOutsideRoot, "create through an escaping directory link")
	wantCode(t, f.write("outdir/deeper/new.txt", "pwned"), CodeOutsideRoot, "mkdir through an escaping directory link")
	f.outsideUnchanged()
}

func TestSymlinkLoopsAndNULs(t *testing.T) {
	f := newFixture(t)
	_, err := f.read("loop1")
	wantCode(t, err, CodeSymlinkLoop, "read a symlink loop")
	_, err = f.read("file.txt\x00x")
	wantCode(t, err, "invalid_request", "read a path with NUL")
}

func TestNonexistentTargets(t *testing.T) {
	f := newFixture(t)
	_, err := f.read("missing.txt")
	wantCode(t, err, CodeNotFound, "read a missing file")
	must(t, f.write("new/deep/file.txt", "created\n"))
	got, err := f.read("new/deep/file.txt")
	if err != nil || got != "created\n" {
		t.Fatalf("created file reads %q, %v", got, err)
	}
	must(t, os.Symlink("missing-target", filepath.Join(f.ws, "dangling")))
	wantCode(t, f.write("dangling", "x"), CodeOutsideRoot, "write a dangling symlink")
	if _, err := os.Lstat(filepath.Join(f.ws, "missing-target")); err == nil {
		t.Fatal("writing a dangling symlink created its target")
	}
}

func TestInternalSymlinkWriteChangesTheTarget(t *testing.T) {
	f := newFixture(t)
	must(t, f.write("in", "changed\n"))
	b, _ := os.ReadFile(filepath.Join(f.ws, "sub/inner.txt"))
	if string(b) != "changed\n" {
		t.Fatalf("target = %q", b)
	}
	if fi, _ := os.Lstat(filepath.Join(f.ws, "in")); fi.Mode()&os.ModeSymlink == 0 {
		t.Fatal("the symlink was replaced by a file")
	}
}

func TestHardLinkedWritesAreRefused(t *testing.T) {
	f := newFixture(t)
	must(t, os.Link(filepath.Join(f.out, "secret.txt"), filepath.Join(f.ws, "hard.txt")))
	wantCode(t, f.write("hard.txt", "pwned"), CodeHardLink, "write a hard-linked file")
	f.outsideUnchanged()
}

func TestSpecialFilesAreRefused(t *testing.T) {
	f := newFixture(t)
	must(t, unix.Mkfifo(filepath.Join(f.ws, "fifo"), 0o644))
	l, err := net.Listen("unix", filepath.Join(f.ws, "sock"))
	must(t, err)
	defer l.Close()
	for _, p := range []string{"fifo", "sock"} {
		_, err := f.read(p)
		wantCode(t, err, CodeSpecialFile, "read "+p)
		wantCode(t, f.write(p, "x"), CodeSpecialFile, "write "+p)
	}
	// Device nodes: /dev itself as the root, so no mknod privilege is needed.
	dev, err := Open("/dev", f.auth)
	must(t, err)
	defer dev.Close()
	for _, p := range []string{"null", "zero", "tty"} {
		if _, err := os.Lstat("/dev/" + p); err != nil {
			continue
		}
		_, _, err := dev.OpenRead(p)
		wantCode(t, err, CodeSpecialFile, "read /dev/"+p)
	}
}

func TestProtectedPathsAndAliases(t *testing.T) {
	f := newFixture(t)
	must(t, os.MkdirAll(filepath.Join(f.ws, "a"), 0o755))
	must(t, os.Link(filepath.Join(f.ws, ".fluzo"), filepath.Join(f.ws, "fluzo-hard")))
	must(t, os.Link(f.auth, filepath.Join(f.ws, "auth-hard")))
	must(t, os.Symlink(".git/config", filepath.Join(f.ws, "gitcfg")))
	for _, p := range []string{".git/config", ".git", ".fluzo", ".fluzodrive/state", "a/../.git/config", "g/config",
		"gitcfg", "cfg", "drive/state", "fluzo-hard", "auth-hard", "self/.fluzo", "subln/../.git/config", "g"} {
		_, err := f.read(p)
		wantCode(t, err, CodeProtectedPath, "read "+p)
		wantCode(t, f.write(p, "pwned"), CodeProtectedPath, "write "+p)
	}
	for _, p := range []string{"g/hooks/pre-commit", "drive/new", ".fluzodrive/new", "self/.fluzo", "self/.git", "sub/../.fluzo"} {
		wantCode(t, f.write(p, "pwned"), CodeProtectedPath, "create "+p)
	}
	if _, err := os.Stat(filepath.Join(f.ws, ".git/hooks")); err == nil {
		t.Fatal("a directory was created inside .git")
	}
	b, _ := os.ReadFile(filepath.Join(f.ws, ".git/config"))
	if string(b) != "[core]\n" {
		t.Fatalf(".git/config changed: %q", b)
	}
}

func TestReplaceKeepsModeAndLeavesNoTemporaryFiles(t *testing.T) {
	f := newFixture(t)
	p := filepath.Join(f.ws, "script.sh")
	must(t, os.WriteFile(p, []byte("#!/bin/sh\n"), 0o750))
	must(t, os.Chmod(p, 0o750))
	must(t, f.write("script.sh", "#!/bin/sh\necho hi\n"))
	fi, err := os.Stat(p)
	must(t, err)
	if fi.Mode().Perm() != 0o750 {
		t.Fatalf("mode = %v, want 0750", fi.Mode().Perm())
	}
	ents, _ := os.ReadDir(f.ws)
	for _, e := range ents {
		if filepath.Ext(e.Name()) == "" && len(e.Name()) > 10 && e.Name()[:10] == ".fluzo-tmp" {
			t.Fatalf("temporary file left behind: %s", e.Name())
		}
	}
}

func TestWithoutOpenat2EverythingFailsClosed(t *testing.T) {
	saved := sysOpenat2
	sysOpenat2 = func(int, string, *unix.OpenHow) (int, error) { return -1, syscall.ENOSYS }
	defer func() { sysOpenat2 = saved }()
	_, err := Open(t.TempDir(), "")
	wantCode(t, err, CodeConfinementUnavailable, "open a root without openat2")
}

func TestRootThatIsNotADirectory(t *testing.T) {
	_, err := Open(filepath.Join(t.TempDir(), "missing"), "")
	wantCode(t, err, "not_found", "open a missing root")
}

// A hard link to a protected file is another name of it: reads refuse it
// (the path, its real path and its parent are all unprotected), while a
// hard link between ordinary files stays readable.
func TestHardLinksToProtectedFilesAreNotRead(t *testing.T) {
	f := newFixture(t)
	files := map[string]string{
		".git/HEAD": "ref: refs/heads/main\n", ".git/refs/heads/main": "0123\n",
		".fluzodrive/state.sqlite3": "SQLite format 3\x00",
	}
	for p, c := range files {
		must(t, os.MkdirAll(filepath.Dir(filepath.Join(f.ws, p)), 0o755))
		must(t, os.WriteFile(filepath.Join(f.ws, p), []byte(c), 0o644))
	}
	for i, p := range []string{".git/config", ".git/HEAD", ".git/refs/heads/main", ".fluzodrive/state", ".fluzodrive/state.sqlite3", ".fluzo"} {
		link := filepath.Join(f.ws, "sub", "link"+strconv.Itoa(i))
		must(t, os.Link(filepath.Join(f.ws, p), link))
		rel := "sub/link" + strconv.Itoa(i)
		_, err := f.read(rel)
		wantCode(t, err, CodeProtectedPath, "read a hard link to "+p)
		_, _, err = f.root.OpenNoFollow(rel)
		wantCode(t, err, CodeProtectedPath, "no-follow read of a hard link to "+p)
	}
	must(t, os.Link(filepath.Join(f.ws, "file.txt"), filepath.Join(f.ws, "sub", "copy.txt")))
	if got, err := f.read("sub/copy.txt"); err != nil || got != "hello\n" {
		t.Fatalf("an ordinary hard link: %q, %v", got, err)
	}
}
