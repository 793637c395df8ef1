package store

import (
	"context"
	"errors"
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// observationIDs is every stored observation's ID.
func (q Queries) observationIDs(ctx context.Context) (map[string]bool, error) {
	ids, err := collect(ctx, q.q, scanString, "SELECT id FROM observations")
	if err != nil {
		return nil, storageErr(err, "cannot list observations")
	}
	out := make(map[string]bool, len(ids))
	for _, id := range ids {
		out[id] = true
	}
	return out, nil
}

// checkLabels inspects the eval label log without changing it: a link
// or a non-plain entry in its place fails, so does a mode wider than
// owner-only; labels of observations no longer stored are a warning (the
// next history purge removes them).
func (s *Store) checkLabels(ctx context.Context) Finding {
	ws := s.ws
	fail := func(msg, hint string) Finding {
		return Finding{Check: "eval_labels", Status: StatusFail, Message: msg, Hint: hint, Path: ws.LabelsPath()}
	}
	dir, err := openEvalDir(ws, false)
	if errors.Is(err, os.ErrNotExist) {
		return Finding{Check: "eval_labels", Status: StatusOK, Message: "no eval labels recorded", Path: ws.LabelsPath()}
	}
	if err != nil {
		return fail(errMessage(err), errHint(err))
	}
	defer unix.Close(dir)
	if msg, hint := modeProblem(dir, ws.EvalDirPath(), DirMode); msg != "" {
		return fail(msg, hint)
	}
	f, err := openLabelsFile(dir, ws, unix.O_RDONLY)
	if errors.Is(err, os.ErrNotExist) {
		return Finding{Check: "eval_labels", Status: StatusOK, Message: "no eval labels recorded", Path: ws.LabelsPath()}
	}
	if err != nil {
		return fail(errMessage(err), errHint(err))
	}
	defer f.Close()
	if msg, hint := modeProblem(int(f.Fd()), ws.LabelsPath(), FileMode); msg != "" {
		return fail(msg, hint)
	}
	lines, err := ReadEvalLabels(ws)
	if err != nil {
		return fail(errMessage(err), errHint(err))
	}
	live, err := s.observationIDs(ctx)
	if err != nil {
		return fail(errMessage(err), errHint(err))
	}
	orphans := 0
	for _, l := range lines {
		if id := labelObservation(l); id != "" && !live[id] {
			orphans++
		}
	}
	if orphans > 0 {
		return Finding{Check: "eval_labels", Status: StatusWarn, Path: ws.LabelsPath(),
			Message: fmt.Sprintf("%d of %d eval label(s) refer to observations no longer stored", orphans, len(lines)),
			Hint:    "they are never exported; the next 'fluzo-store history purge' removes them"}
	}
	return Finding{Check: "eval_labels", Status: StatusOK, Path: ws.LabelsPath(),
		Message: fmt.Sprintf("%d eval label(s) in a private plain file", len(lines))}
}

func modeProblem(fd int, path string, want os.FileMode) (string, string) {
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return "cannot inspect " + path, ""
	}
	if perm := os.FileMode(st.Mode).Perm(); perm&^want != 0 {
		return fmt.Sprintf("%s has mode %o; owner-only %o is required", path, perm, want), fmt.Sprintf("chmod %o %s", want, path)
	}
	return "", ""
}
