// Package release holds the checks that keep Fluzo's packaging files true
// without the packaging tools: the Nix archive (NAR) hash that a flake's
// Go vendorHash is, and the .SRCINFO that makepkg derives from a PKGBUILD.
// The release scripts (scripts/build, scripts/release, scripts/test-packaging)
// do the building; the tests here also drive them, so a stale flake.nix or
// .SRCINFO, a non-reproducible build or a release check that misses a
// tampered archive fails `go test`.
package release
