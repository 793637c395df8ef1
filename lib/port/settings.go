package port

import "encoding/json"

// SettingEntry is one row of the settings answer: an effective value with
// its provenance and the registry facts (type, unit, default, range,
// options, when a change applies) a client draws a control from. The
// registry itself stays in the runtime; a client never holds a second
// schema.
type SettingEntry struct {
	Key            string          `json:"key"`
	Value          json.RawMessage `json:"value"`
	Source         string          `json:"source,omitempty"` // default, file or cli
	File           string          `json:"file,omitempty"`
	Line           int             `json:"line,omitempty"`
	Type           string          `json:"type"` // bool, int, float, string, enum, string_list, string_map
	Unit           string          `json:"unit,omitempty"`
	Default        json.RawMessage `json:"default"`
	Min            *float64        `json:"min,omitempty"`
	Max            *float64        `json:"max,omitempty"`
	Options        []string        `json:"options,omitempty"`
	Valid          string          `json:"valid"`
	Privacy        string          `json:"privacy"`
	Apply          string          `json:"apply"` // live, future, safe_boundary, restart
	Description    string          `json:"description"`
	Locked         bool            `json:"locked,omitempty"`
	DevMenu        bool            `json:"dev_menu,omitempty"`
	TaskBudget     bool            `json:"task_budget,omitempty"` // a running task takes it only with CurrentTask
	Edited         bool            `json:"edited,omitempty"`
	Saved          json.RawMessage `json:"saved,omitempty"` // the saved value of an edited key
	PendingRestart bool            `json:"pending_restart,omitempty"`
}

// SettingsAnswer is the data of a settings or config_change ack.
type SettingsAnswer struct {
	Settings []SettingEntry `json:"settings"`
	File     string         `json:"file,omitempty"`
	Applied  []AppliedEdit  `json:"applied,omitempty"`
	Saved    bool           `json:"saved,omitempty"`
}

// AppliedEdit says when one applied key takes effect: now, safe_boundary
// (the running task's next turn), next_task or restart. Value is redacted unless the setting is a public preference.
type AppliedEdit struct {
	Key   string          `json:"key"`
	Value json.RawMessage `json:"value"`
	When  string          `json:"when"`
}
