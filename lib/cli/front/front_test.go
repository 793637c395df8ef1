package front

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestMain lets the test binary act as fluzo when it is copied under that
// name, so dispatch can be observed from a real executable location.
func TestMain(m *testing.M) {
	if filepath.Base(os.Args[0]) == "fluzo" {
		os.Exit(Main())
	}
	os.Exit(m.Run())
}

func script(t *testing.T, path, body string) {
	t.Helper()
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
}

// TestSiblingBesideTheExecutableWinsOverPath: an installed toolkit runs its
// own fluzo-X even when another fluzo-X comes earlier on PATH, and falls
// back to PATH only when no sibling exists.
func TestSiblingBesideTheExecutableWinsOverPath(t *testing.T) {
	install, other := t.TempDir(), t.TempDir()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	fluzo := filepath.Join(install, "fluzo")
	in, err := os.Open(self)
	if err != nil {
		t.Fatal(err)
	}
	out, err := os.OpenFile(fluzo, os.O_CREATE|os.O_WRONLY, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	in.Close()
	out.Close()
	script(t, filepath.Join(install, "fluzo-hello"), `echo "sibling $*"; exit 5`)
	script(t, filepath.Join(other, "fluzo-hello"), `echo "from PATH"`)
	script(t, filepath.Join(other, "fluzo-only"), `echo "only on PATH"`)
	run := func(args ...string) (string, int) {
		cmd := exec.Command(fluzo, args...)
		cmd.Env = append(os.Environ(), "PATH="+other+":/usr/bin:/bin")
		b, err := cmd.Output()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return strings.TrimSpace(string(b)), code
	}
	if got, code := run("hello", "a b"); got != "sibling a b" || code != 5 {
		t.Fatalf("fluzo hello = %q (exit %d), want the sibling's output and exit 5", got, code)
	}
	if got, code := run("only"); got != "only on PATH" || code != 0 {
		t.Fatalf("fluzo only = %q (exit %d), want the PATH fallback", got, code)
	}
}
