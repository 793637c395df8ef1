package testscripts

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// TestACPEditor runs the scripts in acp/, where an editor (the official
// TypeScript ACP SDK) drives fluzo-agent acp. They need node and the SDK
// that scripts/test installs: missing in CI is a failure, elsewhere a
// skip that names the install command.
func TestACPEditor(t *testing.T) {
	repo, _ := filepath.Abs("..")
	if why := acpSDKMissing(repo); why != "" {
		if os.Getenv("CI") != "" {
			t.Fatalf("%s; scripts/test installs it with %s", why, acpSDKInstall)
		}
		t.Skipf("%s; install it with %s (scripts/test does)", why, acpSDKInstall)
	}
	p := Params()
	p.Dir = "acp"
	testscript.Run(t, p)
}
