package gitx

import (
	"context"
	"strings"
)

// Head reads HEAD's commit and branch ("" when detached), and with top
// the work tree's top level, in one git process; a HEAD without a commit
// yet (which that process cannot name) is read the long way.
func Head(ctx context.Context, dir string, env []string, top bool) (topLevel, head, branch string) {
	args := []string{"rev-parse"}
	if top {
		args = append(args, "--show-toplevel")
	}
	// The final "--" keeps a file named HEAD from making the name ambiguous.
	args = append(args, "HEAD", "--abbrev-ref", "HEAD", "--")
	if res, err := Run(ctx, dir, env, args...); err == nil && res.ExitCode == 0 {
		lines := strings.Split(string(res.Stdout), "\n")
		if top {
			topLevel, lines = lines[0], lines[1:]
		}
		if len(lines) >= 2 {
			head, branch = lines[0], lines[1]
			if branch == "HEAD" { // git's answer for a detached HEAD
				branch = ""
			}
			return topLevel, head, branch
		}
	}
	if top {
		topLevel, _ = TopLevel(ctx, dir, env)
	}
	if h, err := Output(ctx, dir, env, "rev-parse", "--verify", "-q", "HEAD"); err == nil {
		head = strings.TrimSpace(string(h))
	}
	if b, err := Output(ctx, dir, env, "symbolic-ref", "-q", "--short", "HEAD"); err == nil {
		branch = strings.TrimSpace(string(b))
	}
	return topLevel, head, branch
}
