package cards

import (
	"encoding/json"
	"fmt"
	"strings"
)

// js marshals v for a fixture (fixtures are built as Go values so the
// JSON is always what encoding/json writes, as the runtime does).
func js(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

func okResult(v any) json.RawMessage { return js(map[string]any{"ok": true, "result": v}) }

func errResult(code, msg, hint string) json.RawMessage {
	return js(map[string]any{"ok": false, "error": map[string]any{"code": code, "message": msg, "hint": hint}})
}

func numbered(n int, f string) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "%6d\t"+f+"\n", i, i)
	}
	return b.String()
}

func lines(n int, f string) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, f+"\n", i)
	}
	return b.String()
}

// fixtures: one or more per card kind — ok, collapsed past ten rows,
// failed, truncated, running, waiting, denied, unknown, undecodable, and
// hostile text in paths, argv and output.
var fixtures = []struct {
	name string
	op   Op
}{
	{"view-ok", Op{Tool: "view", State: "succeeded", Args: js(map[string]any{"path": "src/lib.rs"}),
		Result: okResult(map[string]any{"path": "src/lib.rs", "version": "sha256:ab", "content": numbered(14, "line %d of the file"), "first_line": 1, "lines_shown": 14, "total_lines": 14})}},
	{"view-truncated", Op{Tool: "view", State: "succeeded", Args: js(map[string]any{"path": "big.txt", "limit": 3}),
		Result: okResult(map[string]any{"path": "big.txt", "content": numbered(3, "row %d"), "first_line": 1, "lines_shown": 3, "total_lines": 5000, "truncated": true, "next_offset": 4})}},
	{"view-running", Op{Tool: "view", State: "dispatched", Args: js(map[string]any{"path": "src/lib.rs"})}},
	{"view-binary", Op{Tool: "view", State: "succeeded", Args: js(map[string]any{"path": "logo.png"}), Result: okResult(map[string]any{"path": "logo.png", "binary": true})}},
	{"ls-ok", Op{Tool: "ls", State: "succeeded", Args: js(map[string]any{"path": "src", "depth": 1}),
		Result: okResult(map[string]any{"path": "src", "entries": []string{"src/lib.rs", "src/main.rs", "src/parse/"}})}},
	{"glob-truncated", Op{Tool: "glob", State: "succeeded", Args: js(map[string]any{"pattern": "**/*.rs"}),
		Result: okResult(map[string]any{"entries": strings.Fields(lines(12, "src/m%d.rs")), "truncated": true, "note": "more than 12 matches; narrow the pattern"})}},
	{"grep-ok", Op{Tool: "grep", State: "succeeded", Args: js(map[string]any{"pattern": "fn add", "path": "src", "include": "*.rs"}),
		Result: okResult(map[string]any{"matches": []map[string]any{{"path": "src/lib.rs", "line": 3, "text": "pub fn add(a: i32, b: i32) -> i32 {"}, {"path": "tests/it.rs", "line": 9, "text": "    assert_eq!(add(2, 2), 4);"}}})}},
	{"grep-failed", Op{Tool: "grep", State: "failed", Reason: "invalid_request", Args: js(map[string]any{"pattern": "fn ("}),
		Result: errResult("invalid_request", "pattern is not a valid regular expression: missing closing )", "escape ( or pass literal:true")}},
	{"edit-ok", Op{Tool: "edit", State: "succeeded", Args: js(map[string]any{"path": "src/lib.rs", "old_string": "    a - b\n}", "new_string": "    // add, not subtract\n    a + b\n}", "expect_version": "sha256:ab"}),
		Result: okResult(map[string]any{"path": "src/lib.rs", "version": "sha256:cd", "bytes": 120})}},
	{"edit-failed", Op{Tool: "edit", State: "failed", Reason: "old_string_not_found", Args: js(map[string]any{"path": "src/lib.rs", "old_string": "a - c", "new_string": "a + b", "expect_version": "sha256:ab"}),
		Result: errResult("old_string_not_found", "old_string does not occur in src/lib.rs", "view the file again and copy the text exactly")}},
	{"edit-waiting", Op{Tool: "edit", State: "requested", Waiting: true, Rule: "ask:edit", Args: js(map[string]any{"path": "Cargo.toml", "old_string": "version = \"0.1.0\"", "new_string": "version = \"0.2.0\""})}},
	{"write-new", Op{Tool: "write", State: "succeeded", Args: js(map[string]any{"path": "src/parse.rs", "expect_version": "absent", "content": lines(13, "// line %d of the new module")}),
		Result: okResult(map[string]any{"path": "src/parse.rs", "bytes": 377, "created": true})}},
	{"mcp-ok", Op{Tool: "mcp__everything__echo", State: "succeeded", Args: js(map[string]any{"message": "hello"}),
		Result: okResult(map[string]any{"is_error": false, "content": []map[string]any{{"type": "text", "text": "Echo: hello\x1b]0;pwned\x07"}, {"type": "image", "mime_type": "image/png", "bytes": 120}}})}},
	{"mcp-unknown", Op{Tool: "mcp__everything__trigger-long-running-operation", State: "unknown", Args: js(map[string]any{"duration": 60}),
		Result: js(map[string]any{"ok": false, "unknown": true, "error": map[string]any{"code": "unknown_outcome", "message": "outcome unknown: the MCP server everything was lost while the call ran"}})}},
	{"exec-ok", Op{Tool: "exec", State: "succeeded", Args: js(map[string]any{"argv": []string{"cargo", "test", "--quiet"}, "cwd": "crate"}),
		Result: okResult(map[string]any{"argv": []string{"cargo", "test", "--quiet"}, "cwd": "crate", "exit_code": 0, "duration_ms": 1234, "stdout": "running 4 tests\n....\ntest result: ok. 4 passed; 0 failed\n", "stderr": "   Compiling demo v0.1.0\n    Finished test\n"})}},
	{"exec-failed", Op{Tool: "exec", State: "succeeded", Args: js(map[string]any{"argv": []string{"cargo", "test"}}),
		Result:  okResult(map[string]any{"argv": []string{"cargo", "test"}, "cwd": ".", "exit_code": 101, "duration_ms": 65500, "stdout": lines(14, "test case_%d ... ok") + "test regression ... FAILED\n", "stderr": "error: test failed, to rerun pass `--lib`\n"}),
		Command: &CommandEvidence{Command: "cargo test", ExitCode: exitCode(101), Failure: "cargo test: regression FAILED"}}},
	{"exec-truncated", Op{Tool: "exec", State: "succeeded", Args: js(map[string]any{"argv": []string{"seq", "1", "100000"}}),
		Result: okResult(map[string]any{"argv": []string{"seq", "1", "100000"}, "exit_code": 0, "duration_ms": 80, "stdout": lines(70, "%d") + "\n[fluzo: 573000 bytes omitted; output truncated to the first and last 32768 bytes]\n" + lines(70, "99%03d"), "stdout_bytes": 588895, "stdout_truncated": true, "timeout_seconds": 30, "timeout_capped": true})}},
	{"exec-timeout", Op{Tool: "exec", State: "succeeded", Args: js(map[string]any{"argv": []string{"sleep", "600"}, "env": map[string]string{"RUST_LOG": "debug", "A_TOKEN": "secret-value"}}),
		Result: okResult(map[string]any{"argv": []string{"sleep", "600"}, "exit_code": nil, "signal": "SIGKILL", "timed_out": true, "timeout_seconds": 120, "duration_ms": 120004, "unconfirmed": []map[string]any{{"pid": 4242}}})}},
	{"exec-denied", Op{Tool: "exec", State: "denied", Rule: "deny:exec:rm", Reason: "removing files outside the workspace is denied", Args: js(map[string]any{"argv": []string{"rm", "-rf", "/tmp/x y"}})}},
	{"exec-unknown", Op{Tool: "exec", State: "unknown", Args: js(map[string]any{"argv": []string{"cargo", "build"}})}},
	{"exec-evidence", Op{Tool: "exec", State: "succeeded", Args: js(map[string]any{"argv": []string{"cargo", "test"}}),
		Command: &CommandEvidence{Command: "cargo test", ExitCode: exitCode(101), Failure: "regression FAILED", OutputTail: "test regression ... FAILED\nfailures:\n    regression\n"}}},
	{"exec-evidence-cancelled", Op{Tool: "exec", State: "failed", Args: js(map[string]any{"argv": []string{"cargo", "test"}}),
		Command: &CommandEvidence{Command: "cargo test", Cancelled: true, Signal: "SIGTERM", OutputTail: "running 4 tests\n"}}},
	{"shell-script", Op{Tool: "shell", State: "succeeded", Args: js(map[string]any{"script": "cd crate &&\n  cargo test 2>&1 | tail -n 3"}),
		Result: okResult(map[string]any{"argv": []string{"/bin/sh", "-c", "…"}, "exit_code": 0, "duration_ms": 900, "stdout": "test result: ok. 4 passed\r\n"})}},
	{"git-status", Op{Tool: "git_status", State: "succeeded", Args: js(map[string]any{}),
		Result: okResult(map[string]any{"argv": []string{"git", "status"}, "exit_code": 0, "stdout": "## main\n M src/lib.rs\n?? notes.txt\n"})}},
	{"git-diff", Op{Tool: "git_diff", State: "succeeded", Args: js(map[string]any{"paths": []string{"src/lib.rs"}}),
		Result: okResult(map[string]any{"argv": []string{"git", "diff"}, "exit_code": 0, "stdout": "diff --git a/src/lib.rs b/src/lib.rs\n--- a/src/lib.rs\n+++ b/src/lib.rs\n@@ -1,3 +1,3 @@\n pub fn add(a: i32, b: i32) -> i32 {\n-    a - b\n+    a + b\n }\n"})}},
	{"git-commit-failed", Op{Tool: "git_commit", State: "succeeded", Args: js(map[string]any{"message": "fix add\n\nlong body"}),
		Result: okResult(map[string]any{"argv": []string{"git", "commit"}, "exit_code": 1, "stdout": "", "stderr": "nothing to commit, working tree clean\n"})}},
	{"hostile-tool-name", Op{Tool: "x\x1b[2J\u202e", State: "succeeded", Args: js(map[string]any{"k": "v\x1b[31m"}), Result: okResult(map[string]any{"out": "\x1b]52;c;eA==\x07"})}},
	{"generic-tool", Op{Tool: "todo_write", State: "succeeded", Args: js(map[string]any{"items": []string{"fix add", "run tests"}}), Result: okResult(map[string]any{"stored": 2})}},
	{"undecodable-args", Op{Tool: "view", State: "succeeded", Args: json.RawMessage(`{"path": 5}`)}},
	{"undecodable-result", Op{Tool: "exec", State: "succeeded", Args: js(map[string]any{"argv": []string{"ls"}}), Result: json.RawMessage(`{"ok": true, "result": {"exit_code": "zero"}}`)}},
	{"journal-standin", Op{Tool: "view", State: "succeeded", Artifact: "art_01", Args: js(map[string]any{"path": "huge.log"}), Result: js(map[string]any{"ok": true, "truncated": true, "bytes": 900000})}},
	{"hostile", Op{Tool: "exec", State: "succeeded", Args: js(map[string]any{"argv": []string{"cat", "evil\u202etxt.exe", "a\nb", "\x1b]52;c;ZXZpbA==\x07"}, "cwd": "dir\x1b[31m"}),
		Result: okResult(map[string]any{"argv": []string{"cat"}, "exit_code": 0, "duration_ms": 5, "stdout": "safe\rEVIL\n\x1b]8;;https://evil.example\x1b\\click\x1b]8;;\x1b\\\n\x1b[1A\x1b[2K✓ approved\n\ufffd bad utf-8 (JSON carries none raw)\n\u2066isolate\u2069 and \u200fmark\n"})}},
	{"hostile-path", Op{Tool: "edit", State: "requested", Waiting: true, Args: js(map[string]any{"path": "src/\u202egpj.rs\x1b[0m", "old_string": "x\x1b[8m", "new_string": "y\u202e"})}},
}

func exitCode(n int) *int { return &n }
