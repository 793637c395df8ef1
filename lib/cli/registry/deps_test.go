package registry

import (
	"os/exec"
	"strings"
	"testing"
)

// The runtime never links the simulator: fluzo demo reaches fluzo-sim and
// fluzo-agent as separate processes (issue 10, item 6).
func TestAgentDoesNotLinkTheSimulatorOrTheDemo(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "github.com/josecorral/fluzo/cmd/fluzo-agent").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, pkg := range strings.Fields(string(out)) {
		if pkg == "github.com/josecorral/fluzo/lib/sim" || pkg == "github.com/josecorral/fluzo/lib/demo" {
			t.Errorf("fluzo-agent links %s", pkg)
		}
	}
}
