package agent

import (
	"context"
	"strings"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/store"
)

// noOwnerStatus is status's answer when no owner listens: the store may
// still hold a task the last owner was running when it died, and that is
// what the user needs to hear, with the command that continues it. The
// lookup is best-effort; without a readable store the plain "not running"
// error stands.
func noOwnerStatus(ctx context.Context, root string, dialErr error) error {
	ws, err := store.ResolveWorkspace(ctx, root)
	if err != nil {
		return dialErr
	}
	active, err := store.OwnerActive(ws)
	if err != nil || active {
		return dialErr
	}
	s, err := store.OpenReadOnly(ctx, ws)
	if err != nil {
		return dialErr
	}
	defer s.Close()
	tasks, err := s.ListTasks(ctx, "")
	if err != nil {
		return dialErr
	}
	var ids, resumes []string
	for _, t := range tasks {
		if t.Interrupted(false) {
			ids = append(ids, t.ID)
			resumes = append(resumes, "'"+core.ResumeCommand(t.ID)+"'")
		}
	}
	if len(ids) == 0 {
		return dialErr
	}
	noun, verb := "task", "was"
	if len(ids) > 1 {
		noun, verb = "tasks", "were"
	}
	return core.Wrap(dialErr, core.CodeNotFound, "no fluzo-agent is running for "+root+"; "+noun+" "+strings.Join(ids, ", ")+" "+verb+" interrupted").
		WithHint("continue with %s", strings.Join(resumes, " or "))
}
