package chaos

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/josecorral/fluzo/lib/cli/registry"
	"github.com/josecorral/fluzo/lib/tools/sandbox"
)

// binDir holds one symlink per toolkit binary, each pointing at this test
// executable: TestMain runs the binary its argv[0] names, so the harness
// drives real processes without building anything.
var binDir string

func TestMain(m *testing.M) {
	name := filepath.Base(os.Args[0])
	if sandbox.IsLaunch(os.Args) {
		name = "fluzo-tool"
	}
	for _, b := range registry.All() {
		if b.Name == name {
			os.Exit(b.Main())
		}
	}
	os.Exit(runTests(m))
}

func runTests(m *testing.M) int {
	exe, err := os.Executable()
	if err != nil {
		fmt.Fprintln(os.Stderr, "chaos:", err)
		return 1
	}
	dir, err := os.MkdirTemp("", "fluzo-chaos-bin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "chaos:", err)
		return 1
	}
	defer os.RemoveAll(dir)
	for _, b := range registry.All() {
		if err := os.Symlink(exe, filepath.Join(dir, b.Name)); err != nil {
			fmt.Fprintln(os.Stderr, "chaos:", err)
			return 1
		}
	}
	binDir = dir
	return m.Run()
}
