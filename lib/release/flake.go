package release

import (
	"fmt"
	"os"
	"regexp"
)

var (
	flakeVendorHash = regexp.MustCompile(`(?m)^\s*vendorHash = "([^"]*)";`)
	flakeVersion    = regexp.MustCompile(`(?m)^\s*version = "([^"]*)";`)
)

// Flake is what the tests read from flake.nix.
type Flake struct {
	VendorHash string
	Version    string
}

// ReadFlake reads the vendorHash and version assignments of flake.nix. It
// does not evaluate Nix: the file keeps them as single string literals on
// their own line, and a missing one is an error naming the file.
func ReadFlake(path string) (Flake, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return Flake{}, err
	}
	var f Flake
	for _, field := range []struct {
		re   *regexp.Regexp
		name string
		dst  *string
	}{{flakeVendorHash, "vendorHash", &f.VendorHash}, {flakeVersion, "version", &f.Version}} {
		m := field.re.FindSubmatch(b)
		if m == nil {
			return Flake{}, fmt.Errorf(`%s: no line %s = "…"; keep it a string literal on its own line`, path, field.name)
		}
		*field.dst = string(m[1])
	}
	return f, nil
}
