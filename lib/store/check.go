package store

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"strings"
)

// Finding is one result of Check.
type Finding struct {
	Check   string `json:"check"`
	Status  string `json:"status"` // ok, warn, fail
	Message string `json:"message"`
	Hint    string `json:"hint,omitempty"`
	Path    string `json:"path,omitempty"`
}

// Finding statuses.
const (
	StatusOK   = "ok"
	StatusWarn = "warn"
	StatusFail = "fail"
)

// Failed reports whether any finding failed.
func Failed(fs []Finding) bool {
	for _, f := range fs {
		if f.Status == StatusFail {
			return true
		}
	}
	return false
}

// Check inspects a workspace's store without changing it: data-root and
// file permissions, git exclusion, schema version, SQLite integrity and
// foreign keys, journal mode, per-session event sequences, artifact files,
// the eval label log and workspace identity. It opens the database read-only.
func Check(ctx context.Context, ws Workspace) []Finding {
	var out []Finding
	add := func(check, status, msg, hint, path string) {
		out = append(out, Finding{Check: check, Status: status, Message: msg, Hint: hint, Path: path})
	}
	if _, err := checkDataRoot(ws); err != nil {
		add("data_root", StatusFail, errMessage(err), errHint(err), ws.Drive())
		return out
	}
	out = append(out, checkModes(ws)...)
	out = append(out, checkOwnerLock(ws))
	if ex, err := CheckExclusion(ctx, ws); err != nil {
		add("git_exclusion", StatusFail, errMessage(err), errHint(err), ws.Drive())
	} else if !ex.OK() {
		err := exclusionError(ws, ex)
		add("git_exclusion", StatusFail, errMessage(err), errHint(err), ws.Drive())
	} else {
		add("git_exclusion", StatusOK, ".fluzodrive/ is untracked and ignored by git", "", ws.Drive())
	}
	s, err := OpenReadOnly(ctx, ws)
	if err != nil {
		add("open", StatusFail, errMessage(err), errHint(err), ws.Database())
		return out
	}
	defer s.Close()
	add("schema", StatusOK, fmt.Sprintf("schema v%d", SchemaVersion), "", ws.Database())
	out = append(out, s.checkDatabase(ctx)...)
	out = append(out, s.checkLabels(ctx))
	return out
}

func checkModes(ws Workspace) []Finding {
	var out []Finding
	want := []struct {
		path string
		mode fs.FileMode
	}{
		{ws.Drive(), DirMode}, {ws.Artifacts(), DirMode}, {ws.Database(), FileMode},
		{ws.Database() + "-wal", FileMode}, {ws.Database() + "-shm", FileMode},
	}
	bad, seen := 0, 0
	for _, w := range want {
		fi, err := os.Lstat(w.path)
		if err != nil {
			continue
		}
		seen++
		if fi.Mode()&fs.ModeSymlink != 0 {
			out = append(out, Finding{Check: "permissions", Status: StatusFail, Path: w.path,
				Message: w.path + " is a symbolic link", Hint: "remove it; managed files are never links"})
			bad++
		} else if fi.Mode().Perm()&^w.mode != 0 {
			out = append(out, Finding{Check: "permissions", Status: StatusFail, Path: w.path,
				Message: fmt.Sprintf("%s has mode %o; owner-only %o is required", w.path, fi.Mode().Perm(), w.mode),
				Hint:    fmt.Sprintf("chmod %o %s", w.mode, w.path)})
			bad++
		}
	}
	switch {
	case seen == 0:
		out = append(out, Finding{Check: "permissions", Status: StatusOK, Message: "no data root yet: nothing stored to check", Path: ws.Drive()})
	case bad == 0:
		out = append(out, Finding{Check: "permissions", Status: StatusOK, Message: "data root and store files are owner-only", Path: ws.Drive()})
	}
	return out
}

func (s *Store) checkDatabase(ctx context.Context) []Finding {
	var out []Finding
	add := func(check, status, msg, hint string) {
		out = append(out, Finding{Check: check, Status: status, Message: msg, Hint: hint, Path: s.ws.Database()})
	}
	const restore = "restore .fluzodrive/state.sqlite3 from .fluzodrive/backups, or move it away to start a new history"
	res, err := collect(ctx, s.q, scanString, "PRAGMA integrity_check")
	switch {
	case err != nil:
		add("integrity", StatusFail, "integrity check could not run: "+errMessage(err), restore)
	case len(res) != 1 || res[0] != "ok":
		add("integrity", StatusFail, "SQLite integrity check failed: "+strings.Join(first(res, 5), "; "), restore)
	default:
		add("integrity", StatusOK, "SQLite integrity check passed", "")
	}
	rows, err := s.q.QueryContext(ctx, "PRAGMA foreign_key_check")
	if err != nil {
		add("foreign_keys", StatusFail, "foreign key check could not run: "+errMessage(err), restore)
	} else {
		broken := 0
		for rows.Next() {
			broken++
		}
		rows.Close()
		if broken > 0 {
			add("foreign_keys", StatusFail, fmt.Sprintf("%d rows reference missing records", broken), restore)
		} else {
			add("foreign_keys", StatusOK, "every reference resolves", "")
		}
	}
	var mode string
	if err := s.q.QueryRowContext(ctx, "PRAGMA journal_mode").Scan(&mode); err != nil || !strings.EqualFold(mode, "wal") {
		add("pragmas", StatusFail, fmt.Sprintf("journal mode is %q, want wal", mode), "open the store for writing once ('fluzo-store init') to restore WAL")
	} else {
		add("pragmas", StatusOK, "journal_mode=wal (synchronous=FULL and foreign_keys are verified on every writer connection)", "")
	}
	out = append(out, s.checkSequences(ctx)...)
	out = append(out, s.checkArtifacts(ctx)...)
	if !s.IdentityMatches() && s.project.ID != "" {
		add("identity", StatusWarn, fmt.Sprintf("the store was created for %s (device %d, inode %d), not this directory",
			s.project.Workspace.Root, s.project.Workspace.Dev, s.project.Workspace.Inode),
			"a moved or cloned store does not authorize resuming old work; review before resuming")
	}
	return out
}

func (s *Store) checkSequences(ctx context.Context) []Finding {
	gaps, err := collect(ctx, s.q, scanString, `SELECT coalesce(session_id, '(none)') FROM events
		GROUP BY session_id HAVING min(seq) != 1 OR max(seq) != count(*)`)
	switch {
	case err != nil:
		return []Finding{{Check: "event_sequence", Status: StatusFail, Message: errMessage(err), Path: s.ws.Database()}}
	case len(gaps) > 0:
		return []Finding{{Check: "event_sequence", Status: StatusFail, Path: s.ws.Database(),
			Message: fmt.Sprintf("event sequence has gaps in %d session(s): %s", len(gaps), strings.Join(first(gaps, 5), ", ")),
			Hint:    "events were deleted outside Fluzo; replay will show the gap"}}
	}
	return []Finding{{Check: "event_sequence", Status: StatusOK, Message: "every session's event sequence is gap-free", Path: s.ws.Database()}}
}

func (s *Store) checkArtifacts(ctx context.Context) []Finding {
	rows, err := s.q.QueryContext(ctx, "SELECT sha256, size FROM artifacts ORDER BY sha256")
	if err != nil {
		return []Finding{{Check: "artifacts", Status: StatusFail, Message: errMessage(err)}}
	}
	defer rows.Close()
	var bad []string
	n := 0
	for rows.Next() {
		var sha string
		var size int64
		if rows.Scan(&sha, &size) != nil {
			continue
		}
		n++
		fi, err := os.Lstat(s.ws.ArtifactPath(sha))
		if !validSHA(sha) || err != nil || !fi.Mode().IsRegular() || fi.Size() != size {
			bad = append(bad, sha)
		}
	}
	if len(bad) > 0 {
		return []Finding{{Check: "artifacts", Status: StatusFail, Path: s.ws.Artifacts(),
			Message: fmt.Sprintf("%d of %d artifact files are missing or wrong: %s", len(bad), n, strings.Join(first(bad, 3), ", ")),
			Hint:    "records referencing them will show the content as missing"}}
	}
	return []Finding{{Check: "artifacts", Status: StatusOK, Message: fmt.Sprintf("%d artifact files present", n), Path: s.ws.Artifacts()}}
}

func first(xs []string, n int) []string {
	if len(xs) > n {
		return append(xs[:n:n], fmt.Sprintf("… %d more", len(xs)-n))
	}
	return xs
}
