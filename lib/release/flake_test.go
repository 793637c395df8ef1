package release

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

const repoRoot = "../.."

// vendorHash is the NAR hash of what `go mod vendor` writes, exactly what
// nixpkgs' buildGoModule fixes. Recomputing it here, offline, makes a
// go.mod or go.sum change without a flake.nix update fail CI.
func TestFlakeVendorHashIsCurrent(t *testing.T) {
	flake, err := ReadFlake(filepath.Join(repoRoot, "flake.nix"))
	if err != nil {
		t.Fatal(err)
	}
	vendor := filepath.Join(t.TempDir(), "vendor")
	cmd := exec.Command("go", "mod", "vendor", "-o", vendor)
	cmd.Dir = repoRoot
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go mod vendor: %v\n%s", err, out)
	}
	got, err := NARHash(vendor)
	if err != nil {
		t.Fatal(err)
	}
	if got != flake.VendorHash {
		t.Errorf("flake.nix vendorHash = %s is stale: go.mod/go.sum vendor to %s; put that in flake.nix", flake.VendorHash, got)
	}
}

func TestReadFlakeNamesAMissingField(t *testing.T) {
	p := filepath.Join(t.TempDir(), "flake.nix")
	os.WriteFile(p, []byte("{\n  version = \"1\";\n}\n"), 0o644)
	_, err := ReadFlake(p)
	if err == nil || err.Error() != p+`: no line vendorHash = "…"; keep it a string literal on its own line` {
		t.Fatalf("err = %v", err)
	}
}
