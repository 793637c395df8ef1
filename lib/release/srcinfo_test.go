package release

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite .SRCINFO from PKGBUILD")

// .SRCINFO is what the AUR tooling and pacman helpers read instead of
// running PKGBUILD; a PKGBUILD edit without it would ship stale metadata.
// scripts/test-packaging also compares it with makepkg --printsrcinfo.
func TestSRCINFOIsInStepWithPKGBUILD(t *testing.T) {
	p, err := ParsePKGBUILD(filepath.Join(repoRoot, "PKGBUILD"))
	if err != nil {
		t.Fatal(err)
	}
	want, err := p.SRCINFO()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(repoRoot, ".SRCINFO")
	if *update {
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Errorf(".SRCINFO is stale; regenerate it: go test ./lib/release -run SRCINFO -update\n--- .SRCINFO\n%s--- from PKGBUILD\n%s", got, want)
	}
}

// The PKGBUILD and the flake describe one release.
func TestPKGBUILDAndFlakeAgreeOnTheVersion(t *testing.T) {
	p, err := ParsePKGBUILD(filepath.Join(repoRoot, "PKGBUILD"))
	if err != nil {
		t.Fatal(err)
	}
	f, err := ReadFlake(filepath.Join(repoRoot, "flake.nix"))
	if err != nil {
		t.Fatal(err)
	}
	if v := p["pkgver"]; len(v) != 1 || v[0] != f.Version {
		t.Errorf("PKGBUILD pkgver = %q, flake.nix version = %q", v, f.Version)
	}
}

func TestParsePKGBUILDReadsShellWords(t *testing.T) {
	src := `pkgname=demo
pkgver=1.2
pkgdesc='one   two'  # a comment
source=("$pkgname-${pkgver}.tar.gz"
        'b c' # comment with ) inside
        d)
depends=()
build() {
  x=1
}
`
	p := parseString(t, src)
	check := map[string][]string{
		"pkgname": {"demo"}, "pkgdesc": {"one   two"},
		"source": {"demo-1.2.tar.gz", "b c", "d"}, "depends": nil,
	}
	for k, want := range check {
		if got := p[k]; strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("%s = %q, want %q", k, got, want)
		}
	}
	if _, ok := p["x"]; ok {
		t.Error("an assignment inside a function was read")
	}
	info, _ := p.SRCINFO()
	if !strings.Contains(info, "\tpkgdesc = one two\n") {
		t.Errorf("whitespace not normalised as makepkg does:\n%s", info)
	}
}

func TestParsePKGBUILDRefusesWhatItCannotRead(t *testing.T) {
	for src, want := range map[string]string{
		"pkgver=$(date)\n":         ":1: pkgver: command substitution",
		"pkgname=a\nsource=(x\n":   ":2: array source is not closed",
		"source=(\"$nope.tar\")\n": ":1: source: $nope is not a scalar",
	} {
		path := filepath.Join(t.TempDir(), "PKGBUILD")
		os.WriteFile(path, []byte(src), 0o644)
		_, err := ParsePKGBUILD(path)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: err = %v, want %q", src, err, want)
		}
	}
}

func parseString(t *testing.T, src string) PKGBUILD {
	t.Helper()
	path := filepath.Join(t.TempDir(), "PKGBUILD")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := ParsePKGBUILD(path)
	if err != nil {
		t.Fatal(err)
	}
	return p
}
