// Package archmap keeps docs/ARCHITECTURE.md true. It has no code of its
// own: its tests read the repository's Go packages and their imports and
// fail when the code map misses a package or lists a removed one, when a
// package imports something its row does not allow, when a layering rule
// is broken, or when an invariant names a test that does not exist.
package archmap
