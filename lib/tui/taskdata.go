package tui

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/josecorral/fluzo/lib/port"
)

// What the tasks and diagnostics views know comes from port answers only:
// the tasks query and the diagnose query (lib/observe's diagnosis, the
// record fluzo-observe diag --json prints). These are the fields they
// read of it; anything absent stays unknown.

type taskRow struct {
	ID        string    `json:"id"`
	Session   string    `json:"session"`
	Request   string    `json:"request"`
	State     string    `json:"state"`
	Reason    string    `json:"reason"`
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
}

type diagRecord struct {
	Task        taskRow  `json:"task"`
	Interrupted bool     `json:"interrupted"`
	Traces      []string `json:"traces"`
	Attempts    []struct {
		ID         string `json:"id"`
		Number     int    `json:"number"`
		State      string `json:"state"`
		Reason     string `json:"reason"`
		Trace      string `json:"trace"`
		Operations []struct {
			ID, Tool, State string
		} `json:"operations"`
	} `json:"attempts"`
	Operations struct {
		Total   int            `json:"total"`
		ByState map[string]int `json:"by_state"`
		Unknown int            `json:"unknown"`
	} `json:"operations"`
	Failures []string `json:"failures"`
	Usage    struct {
		Requests        int    `json:"requests"`
		InputTokens     int64  `json:"input_tokens"`
		OutputTokens    int64  `json:"output_tokens"`
		UnknownRequests int    `json:"unknown_usage_requests"`
		Complete        bool   `json:"complete"`
		Note            string `json:"note"`
	} `json:"usage"`
	Budget      []json.RawMessage `json:"budget_events"`
	Compactions []struct {
		ID           string `json:"id"`
		BeforeTokens *int64 `json:"before_tokens"`
		AfterTokens  *int64 `json:"after_tokens"`
		Artifact     string `json:"artifact"`
	} `json:"compactions"`
	Observations []struct {
		Kind  string `json:"kind"`
		Label string `json:"label"`
	} `json:"laya_observations"`
	Telemetry struct {
		Archive string `json:"archive"`
		Spans   int    `json:"spans"`
		Cost    struct {
			Amount     *float64 `json:"amount"`
			Currency   string   `json:"currency"`
			Provenance []string `json:"provenance"`
			Complete   bool     `json:"complete"`
		} `json:"estimated_cost"`
		Health *struct {
			State string `json:"state"`
			Gaps  bool   `json:"gaps"`
			Sinks []struct {
				Name    string           `json:"name"`
				State   string           `json:"state"`
				Dropped map[string]int64 `json:"dropped"`
			} `json:"sinks"`
		} `json:"health"`
		Note string `json:"note"`
	} `json:"telemetry"`
	// Consent is nil from a runtime that does not report it.
	Consent *consentState `json:"consent"`
}

// consentState is the workspace's consent as the diagnosis reports it
// from the store's consent events.
type consentState struct {
	State        string `json:"state"`
	GrantedAt    string `json:"granted_at"`
	Fingerprint  string `json:"fingerprint"`
	How          string `json:"how"`
	RevokedAt    string `json:"revoked_at"`
	Destinations []struct {
		Purpose string `json:"purpose"`
		URL     string `json:"url"`
		Class   string `json:"class"`
	} `json:"destinations"`
}

// taskData holds the port's answers for the views.
type taskData struct {
	tasks  []taskRow
	loaded bool // the tasks query answered
	diags  map[string]*diagRecord
	// budgets are the live budgets of running tasks (diagmeters.go)
	budgets map[string]*liveBudget
	limits  map[string]string // harness.max_* from the settings answer
	result  *port.Result      // the current task's result record, if any
	// The views' own refusals, shown in the view (its overlay covers the
	// conversation's notice) instead of a load that goes on forever.
	tasksRefused string
	diagReq      string // the diagnostics view's diagnose query
	diagRefused  string
}

// viewRefusal keeps a refusal of the tasks or diagnostics view's queries
// for the view to show.
func (a *App) viewRefusal(cmd string, e *port.ErrorReply) {
	switch {
	case cmd == "tasks":
		a.td.tasksRefused = refusalText(e) + " · esc, then ctrl+t asks again"
	case e.Re != "" && e.Re == a.td.diagReq:
		a.td.diagReq, a.td.diagRefused = "", refusalText(e)+" · esc, then ctrl+d asks again"
	case e.Re != "" && e.Re == a.dg.req:
		a.dg.req, a.dg.refused = "", refusalText(e)
	}
}

func (a *App) tasksAck(raw json.RawMessage) {
	var d struct {
		Tasks []taskRow `json:"tasks"`
	}
	if !decodeData(raw, &d) {
		a.setNotice("the tasks answer could not be read")
		return
	}
	session := a.task.session
	a.td.tasks = a.td.tasks[:0]
	for _, t := range d.Tasks {
		if session == "" || t.Session == session {
			a.td.tasks = append(a.td.tasks, t)
		}
	}
	a.td.loaded, a.td.tasksRefused = true, ""
	for i, t := range a.td.tasks {
		if i == maxDiagnosed {
			break
		}
		a.send(port.Diagnose(t.ID))
	}
}

// maxDiagnosed bounds the diagnose queries one opening of the list sends.
const maxDiagnosed = 50

func (a *App) diagAck(raw json.RawMessage) {
	var d struct {
		Diagnosis diagRecord `json:"diagnosis"`
	}
	if !decodeData(raw, &d) || d.Diagnosis.Task.ID == "" {
		a.setNotice("the diagnosis answer could not be read")
		return
	}
	if a.td.diags == nil {
		a.td.diags = map[string]*diagRecord{}
	}
	a.td.diags[d.Diagnosis.Task.ID] = &d.Diagnosis
	a.diagBudgetAck(d.Diagnosis.Task.ID, raw)
}

// turns is the provider requests the diagnosis counted, or unknown.
func (d *diagRecord) turns() string {
	if d == nil {
		return "unknown"
	}
	return fmt.Sprint(d.Usage.Requests)
}

// tokens are the provider-reported totals; requests that reported none
// make them a lower bound, and none reported at all is unknown (never 0).
func (d *diagRecord) tokens() string {
	if d == nil || d.Usage.Requests > 0 && d.Usage.UnknownRequests == d.Usage.Requests {
		return "unknown"
	}
	n := fmt.Sprint(d.Usage.InputTokens + d.Usage.OutputTokens)
	if d.Usage.UnknownRequests > 0 {
		return "≥" + n
	}
	return n
}

// elapsed is the task's age from its records: created to last update.
// A task still active has run at least that long (the records carry no
// "now"), so it reads as a lower bound.
func (t taskRow) elapsed() string {
	if t.CreatedAt.IsZero() || t.UpdatedAt.Before(t.CreatedAt) {
		return "unknown"
	}
	d := formatDuration(t.UpdatedAt.Sub(t.CreatedAt))
	if t.active() {
		return "≥" + d
	}
	return d
}

func formatDuration(d time.Duration) string {
	s := int(d / time.Second)
	switch {
	case s < 60:
		return fmt.Sprintf("%ds", s)
	case s < 3600:
		return fmt.Sprintf("%dm%02ds", s/60, s%60)
	}
	return fmt.Sprintf("%dh%02dm", s/3600, s/60%60)
}

// limit is a budget limit from the settings answer, or unknown.
func (a *App) limit(key string) string {
	if v := a.td.limits[key]; v != "" {
		return v
	}
	return "unknown"
}
