// Package tools is fluzo-tool's execution backend: the JSONL protocol,
// the server that answers it beneath a confined workspace root, the file,
// search, process and git tools, and a Go client for other packages.
package tools

import (
	"encoding/json"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/tools/proc"
)

// Incoming is one line read by the server: a tool request
// {"v":1,"id":"r1","tool":"view","args":{…}} or a control record
// {"v":1,"id":"c1","control":"cancel","target":"r1"}.
type Incoming struct {
	V    int    `json:"v"`
	ID   string `json:"id"`
	Tool string `json:"tool,omitempty"`
	// Query names a runtime read-only query (see QueryNames) instead of
	// a tool.
	Query string          `json:"query,omitempty"`
	Args  json.RawMessage `json:"args,omitempty"`
	// MaxSeconds caps every timeout of the request: the caller's
	// remaining budget, set by the caller and never by the model.
	MaxSeconds float64 `json:"max_seconds,omitempty"`
	Control    string  `json:"control,omitempty"`
	Target     string  `json:"target,omitempty"`
	// PID names a process for kill instead of a request; it is honoured
	// only when it belongs to a process group this server started.
	PID int `json:"pid,omitempty"`
}

// Request is a tool request as a client sends it.
type Request struct {
	V     int             `json:"v"`
	ID    string          `json:"id"`
	Tool  string          `json:"tool,omitempty"`
	Query string          `json:"query,omitempty"`
	Args  json.RawMessage `json:"args"`
	// MaxSeconds caps the request's process timeout (0: no cap).
	MaxSeconds float64 `json:"max_seconds,omitempty"`
}

// Control is a cancel or kill record as a client sends it.
type Control struct {
	V       int    `json:"v"`
	ID      string `json:"id"`
	Control string `json:"control"`
	Target  string `json:"target,omitempty"`
	PID     int    `json:"pid,omitempty"`
}

// Reply is any record the server writes: "result" (ok or not), "ack"
// for an accepted control, "stopping" for a cancel that left survivors.
type Reply struct {
	V         int             `json:"v"`
	Type      string          `json:"type"`
	Re        string          `json:"re"`
	OK        *bool           `json:"ok,omitempty"`
	Result    json.RawMessage `json:"result,omitempty"`
	Error     *core.Error     `json:"error,omitempty"`
	Target    string          `json:"target,omitempty"`
	Survivors []proc.Survivor `json:"survivors,omitempty"`
}

// Record types written by the server.
const (
	TypeResult   = "result"
	TypeError    = "error"
	TypeAck      = "ack"
	TypeStopping = "stopping"
)

// Error codes of the tool protocol beyond confinement's.
const (
	CodeStaleVersion       core.Code = "stale_version"
	CodeOldStringNotFound  core.Code = "old_string_not_found"
	CodeOldStringAmbiguous core.Code = "old_string_ambiguous"
	CodeUnknownTool        core.Code = "unknown_tool"
	CodeNotOwned           core.Code = "not_owned"
	CodeNotRunning         core.Code = "not_running"
	CodeShuttingDown       core.Code = "shutting_down"
)

func okReply(re string, result any) Reply {
	data, err := core.MarshalVerbatim(result)
	if err != nil {
		return errReply(re, core.Wrap(err, core.CodeInternal, "cannot encode the result"))
	}
	t := true
	return Reply{V: core.WireVersion, Type: TypeResult, Re: re, OK: &t, Result: data}
}

func errReply(re string, err error) Reply {
	f := false
	return Reply{V: core.WireVersion, Type: TypeError, Re: re, OK: &f, Error: core.AsError(err)}
}
