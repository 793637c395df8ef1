// Package diffview is the model of the TUI's diff and verification view:
// the port's diff answer read into the task's changes and the user's
// pre-existing ones (kept apart), a pager that holds one bounded window of
// a path's unified diff however large it is, the window's rows highlighted
// with the fenced-code lexers, and the verification record with its
// failures picked out. It draws nothing and talks to no port: the TUI
// sends the requests it returns and hands back the answers.
package diffview

import (
	"encoding/json"
	"fmt"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/termsafe"
)

// File is one path of the diff.
type File struct {
	Path  string // as the port names it, for the window requests
	Shown string // Path made safe for the terminal
	Kind  string // changed, modified, reverted, added, deleted; "user" for the user's own
	// Added and Removed are line counts, nil while unknown.
	Added, Removed *int
	// Mixed: the user had changed the path before the task, so its diff
	// against the baseline holds both; only the fingerprint was kept.
	Mixed bool
	// Uncertain: who made the change is not known (Reason says why).
	Uncertain bool
	Reason    string
}

// Summary is the port's diff answer for one task.
type Summary struct {
	Task  string
	State string // the task's state
	Live  bool   // computed now while the task runs
	// Changes are the paths changed since the baseline; User lists the
	// paths the user had changed before the task that it left alone.
	Changes      []File
	User         []File
	HeadChanged  bool
	Verification *Verification
}

type answer struct {
	Task  string          `json:"task"`
	State string          `json:"state"`
	Live  bool            `json:"live"`
	Diff  json.RawMessage `json:"diff"`
	Verif json.RawMessage `json:"verification"`
	// EditsSince counts the edits recorded after the verification ran.
	EditsSince int64 `json:"edits_since_verification"`
}

type wireSummary struct {
	HeadChanged bool     `json:"head_changed"`
	PreExisting []string `json:"pre_existing"`
	Changed     []struct {
		Path        string `json:"path"`
		Kind        string `json:"kind"`
		PreExisting bool   `json:"pre_existing"`
		Uncertain   bool   `json:"uncertain"`
		Reason      string `json:"reason"`
		Added       *int   `json:"added"`
		Removed     *int   `json:"removed"`
	} `json:"changed"`
}

// maxFiles bounds the paths one summary keeps (a task that touched more
// says how many were left out).
const maxFiles = 2000

// ParseSummary reads the port's diff answer. Every path and reason is
// made safe for the terminal here, once.
func ParseSummary(raw json.RawMessage) (Summary, error) {
	var a answer
	if err := json.Unmarshal(raw, &a); err != nil || a.Task == "" {
		return Summary{}, core.Errorf(core.CodeInvalidRequest, "the diff answer could not be read").WithHint("use fluzo-tui and fluzo-agent from the same toolkit version")
	}
	var w wireSummary
	if len(a.Diff) > 0 {
		if err := json.Unmarshal(a.Diff, &w); err != nil {
			return Summary{}, core.Errorf(core.CodeInvalidRequest, "the diff answer's summary could not be read: %s", termsafe.Line(err.Error())).With("field", "diff")
		}
	}
	s := Summary{Task: a.Task, State: a.State, Live: a.Live, HeadChanged: w.HeadChanged}
	for _, c := range w.Changed {
		if len(s.Changes) == maxFiles {
			break
		}
		s.Changes = append(s.Changes, File{Path: c.Path, Shown: termsafe.Line(c.Path), Kind: termsafe.Line(c.Kind), Added: c.Added, Removed: c.Removed,
			Mixed: c.PreExisting, Uncertain: c.Uncertain, Reason: termsafe.Line(c.Reason)})
	}
	for _, p := range w.PreExisting {
		if len(s.User) == maxFiles {
			break
		}
		s.User = append(s.User, File{Path: p, Shown: termsafe.Line(p), Kind: "user"})
	}
	if len(a.Verif) > 0 && string(a.Verif) != "null" {
		v, err := ParseVerification(a.Verif)
		if err != nil {
			return Summary{}, err
		}
		v.EditsSince = max(v.EditsSince, a.EditsSince)
		s.Verification = v
	}
	return s, nil
}

// Totals sums the task's +/− counts; known is false when a path's count
// is unknown, so the sums are a lower bound.
func (s Summary) Totals() (added, removed int, known bool) {
	known = true
	for _, f := range s.Changes {
		if f.Added == nil || f.Removed == nil {
			known = false
			continue
		}
		added += *f.Added
		removed += *f.Removed
	}
	return added, removed, known
}

// Counts is a file's "+a −r", "+? −?" while unknown.
func (f File) Counts() string {
	if f.Added == nil || f.Removed == nil {
		return "+? −?"
	}
	return fmt.Sprintf("+%d −%d", *f.Added, *f.Removed)
}

// Partial says why the changes are not a finished task's, or "".
func (s Summary) Partial() string {
	switch s.State {
	case "cancelled":
		return "partial: the task was cancelled; these are the changes it made before it stopped"
	case "failed", "blocked":
		return "incomplete: the task " + s.State + "; these are its changes so far"
	case "running", "stopping", "waiting":
		return "in progress: compared now, while the task runs"
	}
	return ""
}

// Attribution says how far the view can say who made a change.
func (f File) Attribution() string {
	switch {
	case f.Uncertain && f.Reason != "":
		return "uncertain: " + f.Reason
	case f.Uncertain:
		return "uncertain: who changed it is not known"
	case f.Mixed:
		return "mixed: you had changed it before the task; the diff holds both"
	}
	return ""
}
