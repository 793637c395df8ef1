package chaos

import (
	"database/sql"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/josecorral/fluzo/lib/tools/confine"
	_ "github.com/mattn/go-sqlite3"
)

// storeState is what one read-only look at the store found.
type storeState struct {
	tasks           []string
	runningAttempts []string
	unresolvedOps   []string
	attemptState    map[string]string
	opState         map[string]string
}

// readState opens the store read-only, checks the invariants that must
// hold at any moment (integrity, gap-free seq per session, intent before
// dispatch and result, at most one dispatch per operation) and returns
// what recovery must settle.
func readState(path string, bad func(string, ...any)) storeState {
	var st storeState
	db, err := sql.Open("sqlite3", "file:"+path+"?mode=ro&_busy_timeout=5000")
	if err != nil {
		bad("open store: %v", err)
		return st
	}
	defer db.Close()
	var ok string
	if err := db.QueryRow("PRAGMA integrity_check").Scan(&ok); err != nil || ok != "ok" {
		bad("integrity_check: %q %v", ok, err)
		return st
	}
	var tables int
	if err := db.QueryRow("SELECT count(*) FROM sqlite_master WHERE name = 'events'").Scan(&tables); err != nil || tables == 0 {
		bad("store without schema (events table missing, err %v)", err)
		return st
	}
	checkSeq(db, bad)
	checkIntents(db, bad)
	st.tasks = column(db, bad, "SELECT id FROM tasks ORDER BY created_at")
	st.runningAttempts = column(db, bad, "SELECT id FROM attempts WHERE state = 'running'")
	st.unresolvedOps = column(db, bad, "SELECT id FROM operations WHERE state IN ('intent_committed','dispatched')")
	st.attemptState = pairs(db, bad, "SELECT id, state FROM attempts")
	st.opState = pairs(db, bad, "SELECT id, state FROM operations")
	return st
}

func column(db *sql.DB, bad func(string, ...any), q string, args ...any) []string {
	rows, err := db.Query(q, args...)
	if err != nil {
		bad("query %q: %v", q, err)
		return nil
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			bad("scan %q: %v", q, err)
			return out
		}
		out = append(out, s)
	}
	return out
}

func pairs(db *sql.DB, bad func(string, ...any), q string) map[string]string {
	out := map[string]string{}
	rows, err := db.Query(q)
	if err != nil {
		bad("query %q: %v", q, err)
		return out
	}
	defer rows.Close()
	for rows.Next() {
		var k, v string
		if err := rows.Scan(&k, &v); err != nil {
			bad("scan %q: %v", q, err)
			return out
		}
		out[k] = v
	}
	return out
}

// checkSeq: each session's (and the sessionless) seq runs 1..count.
func checkSeq(db *sql.DB, bad func(string, ...any)) {
	rows, err := db.Query(`SELECT coalesce(session_id, '(none)'), count(*), min(seq), max(seq)
		FROM events GROUP BY session_id`)
	if err != nil {
		bad("seq query: %v", err)
		return
	}
	defer rows.Close()
	for rows.Next() {
		var sess string
		var n, lo, hi int64
		if err := rows.Scan(&sess, &n, &lo, &hi); err != nil {
			bad("seq scan: %v", err)
			return
		}
		if lo != 1 || hi != n {
			bad("session %s: seq gap (%d events, seq %d..%d)", sess, n, lo, hi)
		}
	}
}

// checkIntents: a dispatch has an earlier intent; a result of an
// operation that was dispatched has an earlier intent; no operation is
// dispatched twice.
func checkIntents(db *sql.DB, bad func(string, ...any)) {
	for _, id := range column(db, bad, `SELECT d.operation_id FROM events d
		WHERE d.type IN ('operation.dispatched','operation.result','operation.unknown') AND d.operation_id != ''
		AND EXISTS (SELECT 1 FROM events x WHERE x.operation_id = d.operation_id AND x.type = 'operation.dispatched')
		AND NOT EXISTS (SELECT 1 FROM events i WHERE i.operation_id = d.operation_id
			AND i.type = 'operation.intent' AND i.pos < d.pos)`) {
		bad("operation %s: dispatch or result without an earlier intent", id)
	}
	for _, id := range column(db, bad, `SELECT operation_id FROM events WHERE type = 'operation.dispatched'
		GROUP BY operation_id HAVING count(*) > 1`) {
		bad("operation %s dispatched more than once (replay)", id)
	}
}

// checkRecovered: after the reopen, what was running is interrupted and
// what was unresolved is unknown, and nothing is left running.
func checkRecovered(pre, post storeState, bad func(string, ...any)) {
	if len(post.runningAttempts) > 0 {
		bad("attempts still running after reopen: %v", post.runningAttempts)
	}
	if len(post.unresolvedOps) > 0 {
		bad("operations still unresolved after reopen: %v", post.unresolvedOps)
	}
	for _, id := range pre.runningAttempts {
		if got := post.attemptState[id]; got != "interrupted" {
			bad("attempt %s was running at the crash and is %q after reopen, want interrupted", id, got)
		}
	}
	for _, id := range pre.unresolvedOps {
		if got := post.opState[id]; got != "unknown" {
			bad("operation %s was unresolved at the crash and is %q after reopen, want unknown", id, got)
		}
	}
}

// checkWorkspace: every file the workload touches is in its before or
// after state and the exec ran at most once.
func checkWorkspace(ws string, bad func(string, ...any)) { checkWorkspaceWith(ws, bigContent, bad) }

// checkWorkspaceWith is checkWorkspace for a workload that writes big.
func checkWorkspaceWith(ws, big string, bad func(string, ...any)) {
	want := map[string][]string{
		"notes.txt": {notesBefore, notesAfter},
		"big.txt":   {"", big}, // "" stands for absent
		"exec.log":  {"", execLine},
	}
	for name, legal := range want {
		b, err := os.ReadFile(filepath.Join(ws, name))
		got := string(b)
		if err != nil && !os.IsNotExist(err) {
			bad("%s: %v", name, err)
			continue
		}
		if err == nil && got == "" && name != "exec.log" {
			bad("%s: empty file (torn write)", name)
			continue
		}
		if got != legal[0] && got != legal[1] {
			bad("%s: neither its before nor its after version (%d bytes: %.60q)", name, len(b), got)
		}
	}
}

// tempFiles lists the reserved temporary files in ws (outside .git).
func tempFiles(ws string) []string {
	var out []string
	_ = filepath.WalkDir(ws, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() && d.Name() == ".git" {
			return filepath.SkipDir
		}
		if confine.IsTemp(d.Name()) {
			rel, _ := filepath.Rel(ws, p)
			out = append(out, rel)
		}
		return nil
	})
	return out
}
