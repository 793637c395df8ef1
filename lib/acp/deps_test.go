package acp

import (
	"os/exec"
	"strings"
	"testing"
)

// The bridge is a client of the port, like the TUI: it must not link the
// runtime, the store, providers, the simulator or the tools, so it cannot
// reach around the owner's policy, journal or confinement.
func TestBridgeImportsNoRuntimePackage(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "github.com/josecorral/fluzo/lib/acp").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, dep := range strings.Fields(string(out)) {
		for _, banned := range []string{"agent", "store", "provider", "sim", "tools", "policy"} {
			p := "github.com/josecorral/fluzo/lib/" + banned
			if dep == p || strings.HasPrefix(dep, p+"/") {
				t.Errorf("lib/acp depends on %s", dep)
			}
		}
	}
}
