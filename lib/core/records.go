package core

import "time"

// Session groups the tasks a user ran in one workspace.
type Session struct {
	ID        string    `json:"id"`
	ProjectID string    `json:"project"`
	Title     string    `json:"title,omitempty"`
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
	// Synthetic marks generated fixture data so it is never mistaken for
	// real history.
	Synthetic bool `json:"synthetic,omitempty"`
}

// Task is one user request and its lifecycle.
type Task struct {
	ID        string    `json:"id"`
	SessionID string    `json:"session"`
	Request   string    `json:"request"`
	State     TaskState `json:"state"`
	// Reason is machine-readable and set whenever State is waiting,
	// blocked, failed or cancelled (e.g. "budget_exhausted").
	Reason    string    `json:"reason,omitempty"`
	Verify    string    `json:"verify,omitempty"`
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
}

// Attempt is one execution of a task; each attempt is a new trace. A
// resumed attempt links to the one it continues.
type Attempt struct {
	ID         string       `json:"id"`
	TaskID     string       `json:"task"`
	Number     int          `json:"number"`
	State      AttemptState `json:"state"`
	Reason     string       `json:"reason,omitempty"`
	TraceID    string       `json:"trace,omitempty"`
	PreviousID string       `json:"previous,omitempty"`
	StartedAt  time.Time    `json:"started_at"`
	EndedAt    *time.Time   `json:"ended_at,omitempty"`
}

// Operation is one tool call with its durable lifecycle.
type Operation struct {
	ID        string         `json:"id"`
	AttemptID string         `json:"attempt"`
	Tool      string         `json:"tool"`
	CallID    string         `json:"call_id,omitempty"`
	Args      []byte         `json:"args,omitempty"`
	State     OperationState `json:"state"`
	Decision  string         `json:"decision,omitempty"`
	Rule      string         `json:"rule,omitempty"`
	GrantID   string         `json:"grant,omitempty"`
	Result    []byte         `json:"result,omitempty"`
	Artifact  string         `json:"artifact,omitempty"`
	CreatedAt time.Time      `json:"created_at"`
	UpdatedAt time.Time      `json:"updated_at"`
}

// ProviderRequest is one physical request to a model endpoint.
type ProviderRequest struct {
	ID           string    `json:"id"`
	AttemptID    string    `json:"attempt"`
	Purpose      string    `json:"purpose"` // turn, compaction, laya, summary
	Model        string    `json:"model"`
	State        SlotState `json:"state"`
	InputTokens  *int64    `json:"input_tokens"`  // nil = unknown, never zero
	OutputTokens *int64    `json:"output_tokens"` // nil = unknown, never zero
	UsageSource  string    `json:"usage_source,omitempty"`
	CreatedAt    time.Time `json:"created_at"`
	UpdatedAt    time.Time `json:"updated_at"`
}

// Grant is a permission given by the user or configuration.
type Grant struct {
	ID        string     `json:"id"`
	TaskID    string     `json:"task,omitempty"`
	Scope     GrantScope `json:"scope"`
	Spec      string     `json:"spec"`
	State     GrantState `json:"state"`
	Source    string     `json:"source"` // user, cli, config
	CreatedAt time.Time  `json:"created_at"`
	EndedAt   *time.Time `json:"ended_at,omitempty"`
}
