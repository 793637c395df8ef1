package testscripts

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
)

func init() { register("bwrap-backend", bwrapBackend) }

const bwrapMissing = "bwrap is not installed or cannot make a namespace here (apt-get install bubblewrap; ./scripts/test installs it): the bubblewrap backend recipe test needs it"

// bwrapInstalled is the [bwrap] condition: bwrap is on PATH and can make
// its namespaces here. Under CI (or FLUZO_REQUIRE_BWRAP=1) its absence is
// an error, never a skip.
func bwrapInstalled() (bool, error) {
	if p, err := exec.LookPath("bwrap"); err == nil && exec.Command(p, "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "true").Run() == nil {
		return true, nil
	}
	if os.Getenv("CI") != "" || os.Getenv("FLUZO_REQUIRE_BWRAP") == "1" {
		return false, fmt.Errorf("%s", bwrapMissing)
	}
	return false, nil
}

// bwrap-backend VAR ROOT sets VAR to docs/REMOTE.md's bubblewrap recipe
// as a JSON argv (use it as tools.backend=$VAR): a read-only system, a
// fresh /tmp, ROOT (made absolute) bound read-write, no network, the
// built fluzo-tool serving ROOT. The recipe's words are kept; only what
// a test needs is added after them: the built binary bound
// read-only (it lives under the temporary directory the tmpfs hides),
// and a tmpfs over $WORK when $WORK is not beneath /tmp, so that, as on
// a machine where the repository is alone, nothing beside ROOT shows.
func bwrapBackend(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: bwrap-backend VAR ROOT")
	}
	bin := lookPathIn(ts.Getenv("PATH"), "fluzo-tool")
	if bin == "" {
		ts.Fatalf("bwrap-backend: the built fluzo-tool is not on the script's PATH")
	}
	bin, _ = filepath.Abs(bin)
	if real, err := filepath.EvalSymlinks(bin); err == nil {
		bin = real
	}
	root := ts.MkAbs(args[1])
	argv := []string{"bwrap", "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp", "--setenv", "TMPDIR", "/tmp"}
	if work := ts.Getenv("WORK"); !strings.HasPrefix(work, "/tmp/") {
		argv = append(argv, "--tmpfs", work)
	}
	argv = append(argv, "--ro-bind", bin, bin,
		"--bind", root, root, "--unshare-net", "--die-with-parent",
		bin, "serve", "--root", root)
	b, err := json.Marshal(argv)
	ts.Check(err)
	ts.Setenv(args[0], string(b))
}
