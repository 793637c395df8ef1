package observe

import (
	"context"
	"strings"
	"unicode"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/store"
	"github.com/urfave/cli/v3"
)

// openHistory opens the workspace's store read-only: replay and diag never
// create, migrate or write anything, and never contact a provider.
func openHistory(ctx context.Context, c *cli.Command) (*store.Store, error) {
	dir := c.Root().String("workspace")
	ws, err := store.ResolveWorkspace(ctx, dir)
	if err != nil {
		return nil, err
	}
	return store.OpenReadOnly(ctx, ws)
}

// taskArg returns the single TASK argument.
func taskArg(c *cli.Command) (string, error) {
	if c.Args().Len() != 1 {
		return "", core.Errorf(core.CodeUsage, "%s needs exactly one TASK id", c.Name).
			WithHint("list tasks with 'fluzo-store tasks', then run '%s TASK'", c.FullName())
	}
	return c.Args().First(), nil
}

// clean makes untrusted stored text safe for a terminal: control
// characters (including escape sequences) become visible escapes, and the
// result is bounded.
func clean(s string, max int) string {
	var b strings.Builder
	n := 0
	for _, r := range s {
		if n >= max {
			b.WriteString("…")
			break
		}
		switch {
		case r == '\n' || r == '\t':
			b.WriteByte(' ')
		case unicode.IsControl(r) || r == '\u2028' || r == '\u2029' || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069):
			b.WriteString("\\u" + hex4(r))
		default:
			b.WriteRune(r)
		}
		n++
	}
	return b.String()
}

func hex4(r rune) string {
	const digits = "0123456789abcdef"
	return string([]byte{digits[(r>>12)&15], digits[(r>>8)&15], digits[(r>>4)&15], digits[r&15]})
}
