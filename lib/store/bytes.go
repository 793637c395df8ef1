package store

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/josecorral/fluzo/lib/core"
)

var byteUnits = []struct {
	suffix string
	size   int64
}{{"TiB", 1 << 40}, {"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}, {"TB", 1e12}, {"GB", 1e9}, {"MB", 1e6}, {"KB", 1e3}, {"B", 1}}

// ParseBytes reads a size such as "256MiB", "1GiB", "10kB" or "4096".
func ParseBytes(s string) (int64, error) {
	t := strings.TrimSpace(s)
	for _, u := range byteUnits {
		if len(t) > len(u.suffix) && strings.EqualFold(t[len(t)-len(u.suffix):], u.suffix) {
			n, err := strconv.ParseFloat(strings.TrimSpace(t[:len(t)-len(u.suffix)]), 64)
			if err != nil || n < 0 {
				break
			}
			return int64(n * float64(u.size)), nil
		}
	}
	n, err := strconv.ParseInt(t, 10, 64)
	if err != nil || n < 0 {
		return 0, core.Errorf(core.CodeUsage, "%q is not a size", s).
			WithHint("write a number of bytes with an optional unit: 4096, 64KiB, 256MiB, 1GiB")
	}
	return n, nil
}

// FormatBytes prints a size with a binary unit.
func FormatBytes(n int64) string {
	for _, u := range byteUnits[:4] {
		if n >= u.size {
			return fmt.Sprintf("%.1f %s", float64(n)/float64(u.size), u.suffix)
		}
	}
	return fmt.Sprintf("%d B", n)
}
