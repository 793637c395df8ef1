package acp

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"path/filepath"
	"strings"
	"testing"
	"time"

	sdk "github.com/coder/acp-go-sdk"
	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/port"
)

// bridge runs Serve in-process on pipes; the editor side is the Go
// SDK's own JSON-RPC connection, or raw lines for what no SDK sends.
type bridge struct {
	toAgent   *io.PipeWriter
	fromAgent *io.PipeReader
	done      chan error
	root      string
}

func startBridge(t *testing.T, start func(context.Context, string) (*port.Client, error)) *bridge {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	if start == nil {
		start = func(context.Context, string) (*port.Client, error) {
			return nil, core.Errorf(core.CodeFailed, "no owner in this test")
		}
	}
	b := &bridge{toAgent: inW, fromAgent: outR, done: make(chan error, 1), root: root}
	go func() {
		b.done <- Serve(context.Background(), Options{In: inR, Out: outW, Log: io.Discard, Root: root, StartOwner: start, Version: "test"})
		outW.Close()
	}()
	t.Cleanup(func() {
		inW.Close()
		select {
		case <-b.done:
		case <-time.After(10 * time.Second):
			t.Error("Serve did not return after end of input")
		}
	})
	return b
}

// rpc is the Go SDK's connection on the editor's side.
func (b *bridge) rpc() *sdk.Connection {
	return sdk.NewConnection(func(ctx context.Context, method string, params json.RawMessage) (any, *sdk.RequestError) {
		return nil, sdk.NewMethodNotFound(method)
	}, b.toAgent, b.fromAgent)
}

func call(t *testing.T, c *sdk.Connection, method string, params any) (json.RawMessage, *sdk.RequestError) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	res, err := sdk.SendRequest[json.RawMessage](c, ctx, method, params)
	if err == nil {
		return res, nil
	}
	var re *sdk.RequestError
	if !errors.As(err, &re) {
		t.Fatalf("%s: not a JSON-RPC error: %v", method, err)
	}
	return nil, re
}

func initialize(t *testing.T, c *sdk.Connection) {
	t.Helper()
	if _, err := call(t, c, sdk.AgentMethodInitialize, map[string]any{"protocolVersion": 1}); err != nil {
		t.Fatalf("initialize: %v", err)
	}
}

func TestInitializeNegotiatesTheProtocolVersion(t *testing.T) {
	c := startBridge(t, nil).rpc()
	for _, asked := range []int{1, 2, 99} {
		raw, rerr := call(t, c, sdk.AgentMethodInitialize, map[string]any{"protocolVersion": asked, "clientCapabilities": map[string]any{"fs": map[string]any{"readTextFile": true}}})
		if rerr != nil {
			t.Fatal(rerr)
		}
		var res sdk.InitializeResponse
		json.Unmarshal(raw, &res)
		if res.ProtocolVersion != 1 || !res.AgentCapabilities.LoadSession || !res.AgentCapabilities.PromptCapabilities.EmbeddedContext ||
			res.AgentCapabilities.PromptCapabilities.Image || res.AgentInfo == nil || res.AgentInfo.Name != "fluzo-agent" {
			t.Fatalf("asked %d, got %s", asked, raw)
		}
	}
	if _, rerr := call(t, c, sdk.AgentMethodInitialize, map[string]any{}); rerr == nil || rerr.Code != codeInvalidParams || !strings.Contains(rerr.Message, `"protocolVersion" is required`) {
		t.Fatalf("initialize without a version: %v", rerr)
	}
}

func TestMethodsBeforeInitializeAreRefused(t *testing.T) {
	c := startBridge(t, nil).rpc()
	_, rerr := call(t, c, sdk.AgentMethodSessionNew, map[string]any{"cwd": "/", "mcpServers": []any{}})
	if rerr == nil || rerr.Code != codeInvalidRequest || !strings.Contains(rerr.Message, "before initialize") {
		t.Fatalf("got %v", rerr)
	}
}

func TestUnknownMethodsAndWrongParamsAreJSONRPCErrors(t *testing.T) {
	b := startBridge(t, nil)
	c := b.rpc()
	initialize(t, c)
	cases := []struct {
		method string
		params any
		code   int
		says   string
	}{
		{"session/fork", map[string]any{}, codeMethodNotFound, `does not implement "session/fork"; it implements authenticate, initialize, session/cancel, session/load, session/new, session/prompt, session/set_mode`},
		{sdk.AgentMethodSessionNew, map[string]any{"cwd": 5, "mcpServers": []any{}}, codeInvalidParams, "cwd: expected a string, found a JSON number"},
		{sdk.AgentMethodSessionNew, map[string]any{"cwd": "relative", "mcpServers": []any{}}, codeInvalidParams, `cwd "relative" must be an absolute path`},
		{sdk.AgentMethodSessionNew, map[string]any{"cwd": "/", "mcpServers": []any{}}, codeInvalidParams, "is outside the workspace " + b.root},
		{sdk.AgentMethodSessionNew, map[string]any{"cwd": b.root}, codeInvalidParams, "mcpServers is required"},
		{sdk.AgentMethodSessionNew, nil, codeInvalidParams, "params are missing"},
		{sdk.AgentMethodSessionPrompt, map[string]any{"prompt": []any{}}, codeInvalidParams, `"sessionId" is required`},
		{sdk.AgentMethodSessionPrompt, map[string]any{"sessionId": "ses_X", "prompt": []any{map[string]any{"type": "text", "text": "hi"}}}, codeNotFound, `session "ses_X" is not open`},
		{sdk.AgentMethodSessionSetMode, map[string]any{"sessionId": "ses_X"}, codeInvalidParams, `"modeId" is required`},
		{sdk.AgentMethodAuthenticate, map[string]any{"methodId": "x"}, codeInvalidRequest, "no authentication methods"},
	}
	for _, tc := range cases {
		_, rerr := call(t, c, tc.method, tc.params)
		if rerr == nil || rerr.Code != tc.code || !strings.Contains(rerr.Message, tc.says) {
			t.Errorf("%s %v: got %v, want code %d saying %q", tc.method, tc.params, rerr, tc.code, tc.says)
		}
	}
}

func TestMalformedLinesAreAnsweredAndTheConnectionLives(t *testing.T) {
	b := startBridge(t, nil)
	lines := make(chan []byte)
	go func() {
		out := bufio.NewScanner(b.fromAgent)
		for out.Scan() {
			lines <- append([]byte(nil), out.Bytes()...)
		}
		close(lines)
	}()
	send := func(line string) {
		if _, err := io.WriteString(b.toAgent, line+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	next := func() map[string]any {
		var line []byte
		select {
		case line = <-lines:
		case <-time.After(10 * time.Second):
			t.Fatal("no answer within 10s")
		}
		var m map[string]any
		if err := json.Unmarshal(line, &m); err != nil {
			t.Fatalf("answer is not JSON: %s", line)
		}
		return m
	}
	for _, tc := range []struct {
		line string
		id   any
		code float64
		says string
	}{
		{`{"jsonrpc":"2.0","id":1,"method":`, nil, -32700, "Parse error: the message is not JSON"},
		{`[{"jsonrpc":"2.0","id":1,"method":"initialize"}]`, nil, -32600, "batches are not part of ACP"},
		{`"initialize"`, nil, -32600, "must be a JSON object"},
		{`{"jsonrpc":"1.0","id":7,"method":"initialize","params":{}}`, 7.0, -32600, `"jsonrpc" must be "2.0"`},
		{`{"jsonrpc":"2.0","id":{"x":1},"method":"initialize"}`, nil, -32600, "id must be a string, a number or null"},
		{`{"jsonrpc":"2.0","id":"a","method":42}`, "a", -32600, `"method" must be a non-empty string`},
		{`{"jsonrpc":"2.0"}`, nil, -32600, `neither "method" nor "id"`},
		{`{"jsonrpc":"2.0","id":3}`, 3.0, -32600, `must be a response with "result" or "error"`},
	} {
		send(tc.line)
		m := next()
		e, _ := m["error"].(map[string]any)
		if m["jsonrpc"] != "2.0" || m["id"] != tc.id || e == nil || e["code"] != tc.code || !strings.Contains(e["message"].(string), tc.says) {
			t.Errorf("%s: answered %v", tc.line, m)
		}
	}
	// Still serving: a well-formed request after all that is answered.
	send(`{"jsonrpc":"2.0","id":9,"method":"initialize","params":{"protocolVersion":1}}`)
	if m := next(); m["id"] != 9.0 || m["result"] == nil {
		t.Fatalf("initialize after bad lines: %v", m)
	}
}

func TestAnOwnerThatCannotStartIsATypedError(t *testing.T) {
	busy := func(context.Context, string) (*port.Client, error) {
		return nil, core.Errorf(core.CodeWorkspaceBusy, "another process owns this workspace").WithHint("wait for it")
	}
	b := startBridge(t, busy)
	c := b.rpc()
	initialize(t, c)
	_, rerr := call(t, c, sdk.AgentMethodSessionNew, map[string]any{"cwd": b.root, "mcpServers": []any{}})
	if rerr == nil || rerr.Code != codeInternal || rerr.Message != "another process owns this workspace (wait for it)" {
		t.Fatalf("got %v", rerr)
	}
	data, _ := json.Marshal(rerr.Data)
	if !strings.Contains(string(data), `"code":"workspace_busy"`) || !strings.Contains(string(data), `"exit_code":11`) {
		t.Fatalf("data = %s", data)
	}
}

func TestStopReasonsComeFromTheResult(t *testing.T) {
	for status, want := range map[string]sdk.StopReason{
		"completed": sdk.StopReasonEndTurn, "failed": sdk.StopReasonEndTurn, "cancelled": sdk.StopReasonCancelled,
		"budget_exhausted": sdk.StopReasonMaxTurnRequests, "permission_denied": sdk.StopReasonRefusal,
		"permission_required": sdk.StopReasonRefusal, "provider_error": sdk.StopReasonEndTurn,
	} {
		if got := stopReason(&port.Result{Status: status}); got != want {
			t.Errorf("%s -> %s, want %s", status, got, want)
		}
	}
	if got := stopReason(&port.Result{Status: "budget_exhausted", Reason: "token_budget"}); got != sdk.StopReasonMaxTokens {
		t.Errorf("a token budget -> %s", got)
	}
}

func TestPromptContentBecomesTheRequest(t *testing.T) {
	text, rerr := requestText([]sdk.ContentBlock{
		sdk.TextBlock("fix the bug in"),
		sdk.ResourceLinkBlock("lib.rs", "file:///w/src/lib.rs"),
		sdk.ResourceBlock(sdk.EmbeddedResourceResource{TextResourceContents: &sdk.TextResourceContents{Uri: "file:///w/notes.md", Text: "tabs count"}}),
	})
	if rerr != nil || !strings.HasPrefix(text, "fix the bug in file:///w/src/lib.rs") || !strings.Contains(text, "Contents of file:///w/notes.md:\n```\ntabs count\n```") {
		t.Fatalf("text = %q, err = %v", text, rerr)
	}
	if _, rerr := requestText([]sdk.ContentBlock{sdk.ImageBlock("AAAA", "image/png")}); rerr == nil || rerr.Code != codeInvalidParams || !strings.Contains(rerr.Message, "prompt[0] is an image") {
		t.Fatalf("image: %v", rerr)
	}
	if _, rerr := requestText([]sdk.ContentBlock{sdk.TextBlock("  ")}); rerr == nil || !strings.Contains(rerr.Message, "has no text") {
		t.Fatalf("blank: %v", rerr)
	}
}
