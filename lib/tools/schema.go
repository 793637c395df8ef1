package tools

import (
	"bytes"
	"context"
	"embed"
	"encoding/json"
	"strings"

	"github.com/josecorral/fluzo/lib/core"
)

//go:embed descriptions/*.txt
var descriptions embed.FS

type runFunc func(ctx context.Context, s *Server, id string, args json.RawMessage) (any, error)

// tool is one entry of the tool table. exclusive tools (writes, processes,
// git mutations) run one at a time; the others share the root.
type tool struct {
	name      string
	exclusive bool
	run       runFunc
	params    map[string]any
	required  []string
}

func str(desc string) map[string]any { return map[string]any{"type": "string", "description": desc} }
func integer(desc string) map[string]any {
	return map[string]any{"type": "integer", "minimum": 0, "description": desc}
}
func boolean(desc string) map[string]any {
	return map[string]any{"type": "boolean", "description": desc}
}
func number(desc string) map[string]any {
	return map[string]any{"type": "number", "minimum": 0, "description": desc}
}
func stringList(desc string) map[string]any {
	return map[string]any{"type": "array", "items": map[string]any{"type": "string"}, "description": desc}
}
func envMap() map[string]any {
	return map[string]any{"type": "object", "additionalProperties": map[string]any{"type": "string"},
		"description": "extra non-secret environment variables for this command"}
}

var table = []tool{
	{name: "view", run: runView, required: []string{"path"}, params: map[string]any{
		"path": str("file path relative to the workspace root"), "offset": integer("lines to skip from the start (default 0)"),
		"limit": integer("maximum lines to return (default 2000)")}},
	{name: "ls", run: runLs, params: map[string]any{
		"path": str("directory relative to the workspace root (default: the root)"), "depth": integer("levels to descend (default 2, at most 10)")}},
	{name: "glob", run: runGlob, required: []string{"pattern"}, params: map[string]any{
		"pattern": str(`glob such as "*.go" or "src/**/*.rs"`), "path": str("directory to search (default: the root)")}},
	{name: "grep", run: runGrep, required: []string{"pattern"}, params: map[string]any{
		"pattern": str("regular expression (RE2) or, with literal, plain text"), "path": str("directory to search (default: the root)"),
		"include": str(`only search files matching this glob, e.g. "*.go"`), "literal": boolean("treat pattern as plain text")}},
	{name: "write", exclusive: true, run: runWrite, required: []string{"path", "content", "expect_version"}, params: map[string]any{
		"path": str("file path relative to the workspace root"), "content": str("the complete new content"),
		"expect_version": str(`version from your last view of the file, or "absent" to create it`)}},
	{name: "edit", exclusive: true, run: runEdit, required: []string{"path", "old_string", "new_string", "expect_version"}, params: map[string]any{
		"path": str("file path relative to the workspace root"), "old_string": str("exact text to replace"),
		"new_string": str("replacement text"), "replace_all": boolean("replace every occurrence instead of exactly one"),
		"expect_version": str("version from your last view of the file")}},
	{name: "exec", exclusive: true, run: runExec, required: []string{"argv"}, params: map[string]any{
		"argv": stringList("program and arguments, passed exactly"), "cwd": str("working directory relative to the root (default: the root)"),
		"env": envMap(), "timeout_seconds": number("stop the command after this many seconds (default 120)")}},
	{name: "shell", exclusive: true, run: runShell, required: []string{"script"}, params: map[string]any{
		"script": str("shell script for /bin/sh -c"), "cwd": str("working directory relative to the root (default: the root)"),
		"env": envMap(), "timeout_seconds": number("stop the script after this many seconds (default 120)")}},
	{name: "git_status", run: runGitStatus, params: map[string]any{}},
	{name: "git_diff", run: runGitDiff, params: map[string]any{
		"staged": boolean("show staged changes instead of unstaged ones"), "paths": stringList("limit the diff to these paths")}},
	{name: "git_log", run: runGitLog, params: map[string]any{"n": integer("number of commits (default 20, at most 500)")}},
	{name: "git_show", run: runGitShow, required: []string{"rev"}, params: map[string]any{"rev": str("commit, tag or branch")}},
	{name: "git_add", exclusive: true, run: runGitAdd, required: []string{"paths"}, params: map[string]any{"paths": stringList("paths to stage")}},
	{name: "git_commit", exclusive: true, run: runGitCommit, required: []string{"message"}, params: map[string]any{"message": str("commit message")}},
	{name: "git_push", exclusive: true, run: runGitPush, params: map[string]any{
		"remote": str("remote name (default: the upstream)"), "branch": str("branch to push (default: the current one)")}},
}

var toolByName = func() map[string]*tool {
	m := map[string]*tool{}
	for i := range table {
		m[table[i].name] = &table[i]
	}
	return m
}()

// Names lists the tools in schema order.
func Names() []string {
	out := make([]string, len(table))
	for i, t := range table {
		out[i] = t.name
	}
	return out
}

// Schema is a model-visible tool definition in the OpenAI function-tool
// format.
type Schema struct {
	Type     string   `json:"type"`
	Function Function `json:"function"`
}

// Function is the named part of a Schema.
type Function struct {
	Name        string         `json:"name"`
	Description string         `json:"description"`
	Parameters  map[string]any `json:"parameters"`
}

// Schemas returns every tool's model-visible schema. Arguments are closed
// objects: unknown properties are rejected by the server.
func Schemas() []Schema {
	out := make([]Schema, 0, len(table))
	for _, t := range table {
		desc, err := descriptions.ReadFile("descriptions/" + t.name + ".txt")
		if err != nil {
			panic("tools: missing description for " + t.name)
		}
		params := map[string]any{"type": "object", "properties": t.params, "additionalProperties": false}
		if len(t.required) > 0 {
			params["required"] = t.required
		}
		out = append(out, Schema{Type: "function", Function: Function{Name: t.name, Description: strings.TrimSpace(string(desc)), Parameters: params}})
	}
	return out
}

// SchemasJSON renders Schemas as an indented JSON array (what
// "fluzo-tool schema" prints), without HTML escaping.
func SchemasJSON() ([]byte, error) {
	var buf bytes.Buffer
	enc := core.NewVerbatimEncoder(&buf)
	enc.SetIndent("", "  ")
	if err := enc.Encode(Schemas()); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
