package runner

import (
	"strings"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/urfave/cli/v3"
)

// undefinedFlagPrefix is how the parser reports a flag it does not know; it
// always shows one dash, whatever the user typed.
const undefinedFlagPrefix = "flag provided but not defined: -"

func undefinedFlag(msg string) (string, bool) {
	name, ok := strings.CutPrefix(msg, undefinedFlagPrefix)
	return name, ok && name != ""
}

// unknownFlagError names the flag as the user would type it (--task, -C)
// and, when one is close, the flag they probably meant.
func unknownFlagError(c *cli.Command, name string, cause error) error {
	e := core.Wrap(cause, core.CodeUsage, "unknown flag "+dashed(name))
	if near := nearestFlag(c, name); near != "" {
		return e.WithHint("did you mean %s? see '%s --help'", dashed(near), c.FullName())
	}
	return e.WithHint("see '%s --help'", c.FullName())
}

func dashed(name string) string {
	if len([]rune(name)) == 1 {
		return "-" + name
	}
	return "--" + name
}

// nearestFlag returns the visible flag name closest to typed, or "" when
// none is close enough to be a plausible typo: suggesting an unrelated
// flag is worse than suggesting nothing.
func nearestFlag(c *cli.Command, typed string) string {
	best, bestDist := "", -1
	for _, f := range c.VisibleFlags() {
		for _, n := range f.Names() {
			if len([]rune(n)) == 1 {
				continue
			}
			d := editDistance(strings.ToLower(typed), n)
			if strings.HasPrefix(n, typed) || strings.HasPrefix(typed, n) {
				d = min(d, 1)
			}
			if d <= typoBudget(n) && (bestDist < 0 || d < bestDist) {
				best, bestDist = n, d
			}
		}
	}
	return best
}

// typoBudget allows one edit in short names and a third of a long name.
func typoBudget(name string) int {
	return max(1, len(name)/3)
}

// editDistance is the Levenshtein distance between a and b.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
