package confine

import (
	"strings"

	"github.com/josecorral/fluzo/lib/core"
	"golang.org/x/sys/unix"
)

// Path limits of the kernel (Linux PATH_MAX and NAME_MAX), checked before
// resolution so an over-long path gets an answer naming the limit rather
// than a bare ENAMETOOLONG.
const (
	MaxPathBytes = unix.PathMax - 1 // the terminating NUL counts
	MaxNameBytes = 255
)

// Codes of path-limit refusals.
const (
	CodePathTooLong core.Code = "path_too_long"
	CodeNameTooLong core.Code = "name_too_long"
)

// checkPathLimits refuses a path the kernel could never resolve.
func checkPathLimits(p string) error {
	if len(p) > MaxPathBytes {
		return core.Errorf(CodePathTooLong, "the path is %d bytes long; the limit is %d bytes", len(p), MaxPathBytes).
			WithHint("use a shorter path (relative to the workspace root)").
			With("limit", MaxPathBytes).With("length", len(p))
	}
	for _, c := range strings.Split(p, "/") {
		if len(c) > MaxNameBytes {
			return nameTooLong(c)
		}
	}
	return nil
}

func nameTooLong(component string) *core.Error {
	shown := component
	if len(shown) > 40 {
		shown = shown[:40] + "…"
	}
	return core.Errorf(CodeNameTooLong, "the path component %q is %d bytes long; the limit is %d bytes per name", shown, len(component), MaxNameBytes).
		WithHint("use a shorter file or directory name").
		With("limit", MaxNameBytes).With("length", len(component))
}
