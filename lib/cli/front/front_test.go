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
	fluzo := installSelf(t, self, install)
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

// installSelf copies the test binary into dir as fluzo.
func installSelf(t *testing.T, self, dir string) string {
	t.Helper()
	fluzo := filepath.Join(dir, "fluzo")
	in, err := os.Open(self)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.OpenFile(fluzo, os.O_CREATE|os.O_WRONLY, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
	return fluzo
}

// fluzo demo needs its two children; without them it says so before it
// creates anything.
func TestDemoWithoutTheSimulatorStopsBeforeCreatingAnything(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	install := t.TempDir()
	fluzo := installSelf(t, self, install)
	script(t, filepath.Join(install, "fluzo-agent"), `echo "must not run"; exit 9`)
	dir := filepath.Join(t.TempDir(), "demo")
	cmd := exec.Command(fluzo, "demo", "--headless", "--dir", dir)
	cmd.Env = append(os.Environ(), "PATH="+t.TempDir())
	out, err := cmd.CombinedOutput()
	ee, ok := err.(*exec.ExitError)
	if !ok || ee.ExitCode() != 3 || !strings.Contains(string(out), "fluzo-sim") || strings.Contains(string(out), "must not run") {
		t.Fatalf("fluzo demo without fluzo-sim: %v\n%s", err, out)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Fatalf("the demo directory was created: %v", err)
	}
}
