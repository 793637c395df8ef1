package cards

import (
	"encoding/json"

	"github.com/josecorral/fluzo/lib/core"
)

// The argument and result shapes of fluzo-tool's tools, as its JSONL
// protocol carries them (fluzo-tool schema; fluzo-tool(1)). They are
// decoded here rather than imported: the TUI is a client of the wire and
// links none of the runtime's packages.

// outcome is the agent's record of a tool call: {"ok","result","error"},
// or the journal's stand-in for one too large to store.
type outcome struct {
	OK        bool            `json:"ok"`
	Result    json.RawMessage `json:"result"`
	Error     *core.Error     `json:"error"`
	Truncated bool            `json:"truncated"` // stand-in: the result was not kept inline
	Bytes     int64           `json:"bytes"`
}

type viewArgs struct {
	Path   string `json:"path"`
	Offset int    `json:"offset"`
	Limit  int    `json:"limit"`
}

type viewResult struct {
	Path       string `json:"path"`
	Content    string `json:"content"`
	FirstLine  int    `json:"first_line"`
	LinesShown int    `json:"lines_shown"`
	TotalLines int    `json:"total_lines"`
	Binary     bool   `json:"binary"`
	Truncated  bool   `json:"truncated"`
	NextOffset int    `json:"next_offset"`
}

type listArgs struct { // ls and glob
	Path    string `json:"path"`
	Depth   int    `json:"depth"`
	Pattern string `json:"pattern"`
}

type listResult struct {
	Path      string   `json:"path"`
	Entries   []string `json:"entries"`
	Truncated bool     `json:"truncated"`
	Note      string   `json:"note"`
}

type grepArgs struct {
	Pattern string `json:"pattern"`
	Path    string `json:"path"`
	Include string `json:"include"`
	Literal bool   `json:"literal"`
}

type grepMatch struct {
	Path string `json:"path"`
	Line int    `json:"line"`
	Text string `json:"text"`
}

type grepResult struct {
	Matches   []grepMatch `json:"matches"`
	Truncated bool        `json:"truncated"`
	Skipped   int         `json:"skipped_files"`
	Note      string      `json:"note"`
}

type writeArgs struct {
	Path          string `json:"path"`
	Content       string `json:"content"`
	ExpectVersion string `json:"expect_version"`
}

type editArgs struct {
	Path       string `json:"path"`
	OldString  string `json:"old_string"`
	NewString  string `json:"new_string"`
	ReplaceAll bool   `json:"replace_all"`
}

type writeResult struct { // write and edit
	Path         string `json:"path"`
	Bytes        int    `json:"bytes"`
	Created      bool   `json:"created"`
	Replacements int    `json:"replacements"`
}

type processArgs struct { // exec and shell
	Argv           []string          `json:"argv"`
	Script         string            `json:"script"`
	Cwd            string            `json:"cwd"`
	Env            map[string]string `json:"env"`
	TimeoutSeconds float64           `json:"timeout_seconds"`
}

// processResult is exec's and shell's result and, without cwd, the git
// tools' (proc.Outcome plus the argv that ran).
type processResult struct {
	Argv            []string `json:"argv"`
	Cwd             string   `json:"cwd"`
	TimeoutSeconds  float64  `json:"timeout_seconds"`
	TimeoutCapped   bool     `json:"timeout_capped"`
	ExitCode        *int     `json:"exit_code"`
	Signal          string   `json:"signal"`
	DurationMS      int64    `json:"duration_ms"`
	Stdout          string   `json:"stdout"`
	Stderr          string   `json:"stderr"`
	StdoutBytes     int64    `json:"stdout_bytes"`
	StderrBytes     int64    `json:"stderr_bytes"`
	StdoutTruncated bool     `json:"stdout_truncated"`
	StderrTruncated bool     `json:"stderr_truncated"`
	TimedOut        bool     `json:"timed_out"`
	Cancelled       bool     `json:"cancelled"`
	Killed          bool     `json:"killed"`
	Unconfirmed     []struct {
		PID int `json:"pid"`
	} `json:"unconfirmed"`
}

type gitArgs struct {
	Paths   []string `json:"paths"`
	Staged  bool     `json:"staged"`
	N       int      `json:"n"`
	Rev     string   `json:"rev"`
	Message string   `json:"message"`
	Remote  string   `json:"remote"`
	Branch  string   `json:"branch"`
}
