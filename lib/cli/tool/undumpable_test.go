package tool

import (
	"os"
	"testing"

	"golang.org/x/sys/unix"
)

// fluzo-tool marks itself non-dumpable before anything else (secret
// isolation, DESIGN invariant 15): Main leaves the process undumpable.
func TestMainMakesTheProcessUndumpable(t *testing.T) {
	unix.Prctl(unix.PR_SET_DUMPABLE, 1, 0, 0, 0)
	t.Cleanup(func() { unix.Prctl(unix.PR_SET_DUMPABLE, 1, 0, 0, 0) })
	args := os.Args
	t.Cleanup(func() { os.Args = args })
	os.Args = []string{"fluzo-tool", "--version"}
	if code := Main(); code != 0 {
		t.Fatalf("fluzo-tool --version exited %d", code)
	}
	if d, err := unix.PrctlRetInt(unix.PR_GET_DUMPABLE, 0, 0, 0, 0); err != nil || d != 0 {
		t.Fatalf("after Main the process is dumpable (%d, %v)", d, err)
	}
}
