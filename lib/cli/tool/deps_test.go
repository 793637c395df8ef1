package tool

import (
	"os/exec"
	"strings"
	"testing"
)

// fluzo-tool starts with every task and again as the sandbox launcher of
// every command it runs: it must stay a static executable, with no
// dynamic loader and no libc start-up at each exec. Linking net (or any
// package with cgo files) makes it a dynamic one (lib/core/syserr.go).
func TestFluzoToolLinksNoCgo(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "github.com/josecorral/fluzo/cmd/fluzo-tool").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 10 {
		t.Fatalf("go list -deps printed too little to be the import graph:\n%s", out)
	}
	for _, dep := range deps {
		switch dep {
		case "runtime/cgo", "net", "os/user":
			t.Errorf("cmd/fluzo-tool links %s, which makes it a dynamic executable", dep)
		}
	}
}
