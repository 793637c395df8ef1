package port

import (
	"os/exec"
	"strings"
	"testing"
)

// The TUI and the port client are clients of the wire: they must not link
// the runtime, the store writer, providers, the simulator or the tools.
func TestClientsImportNoRuntimePackage(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "github.com/josecorral/fluzo/lib/port", "github.com/josecorral/fluzo/lib/tui/...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, dep := range strings.Fields(string(out)) {
		for _, banned := range []string{"agent", "store", "provider", "sim", "tools"} {
			p := "github.com/josecorral/fluzo/lib/" + banned
			if dep == p || strings.HasPrefix(dep, p+"/") {
				t.Errorf("lib/port or lib/tui depends on %s", dep)
			}
		}
	}
}
