package acp

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"sort"
	"strings"
	"sync"

	sdk "github.com/coder/acp-go-sdk"
	"github.com/josecorral/fluzo/lib/port"
)

// Options wire the bridge to its editor and its owner.
type Options struct {
	In  io.Reader // the editor's messages (stdin)
	Out io.Writer // messages to the editor (stdout); nothing else is written there
	Log io.Writer // diagnostics (stderr)
	// Root is the workspace root (symlinks resolved): a session's cwd
	// must be it or inside it. "" takes the workspace of the first
	// session's cwd, through ResolveRoot (an editor may start the agent
	// outside the project).
	Root        string
	ResolveRoot func(ctx context.Context, dir string) (string, error)
	// StartOwner starts `fluzo-agent serve` for the workspace root. It
	// runs at the first session/new or session/load, so initialize works
	// before (and whether or not) the workspace can be owned.
	StartOwner func(ctx context.Context, root string) (*port.Client, error)
	Version    string
}

// Agent is one ACP connection's state: the owner it drives and the
// sessions the editor opened or loaded.
type Agent struct {
	opts     Options
	conn     *sdk.Connection
	handlers map[string]handler

	mu          sync.Mutex
	initialized bool
	root        string // the workspace root, once known
	own         *owner
	sessions    map[string]*session
	yolo        bool // what the owner's YOLO switch is now set to
}

// Serve speaks ACP on opts.In/opts.Out until the editor closes its end
// or ctx ends; then the owner's input is closed, which cancels a running
// task (the editor is gone: nobody can answer its approvals) and lets
// serve record the outcome and release the workspace.
func Serve(ctx context.Context, opts Options) error {
	a := &Agent{opts: opts, sessions: map[string]*session{}, root: opts.Root}
	a.handlers = a.methods()
	out := &lineWriter{w: opts.Out}
	pr, pw := io.Pipe()
	a.conn = sdk.NewConnection(a.handle, out, pr)
	a.conn.SetLogger(slog.New(slog.NewTextHandler(opts.Log, &slog.HandlerOptions{Level: slog.LevelWarn})))
	gated := make(chan error, 1)
	go func() { gated <- gate(opts.In, pw, out) }()
	select {
	case <-a.conn.Done():
	case <-ctx.Done():
		pw.Close()
	}
	a.shutdown()
	select {
	case err := <-gated:
		return err
	default:
		return nil
	}
}

func (a *Agent) shutdown() {
	a.mu.Lock()
	own := a.own
	a.mu.Unlock()
	if own != nil {
		own.c.CloseWithin(closeGrace)
	}
}

// handler answers one method; params are still raw.
type handler func(ctx context.Context, params json.RawMessage) (any, *sdk.RequestError)

func (a *Agent) methods() map[string]handler {
	return map[string]handler{
		sdk.AgentMethodInitialize:     a.initialize,
		sdk.AgentMethodAuthenticate:   a.authenticate,
		sdk.AgentMethodSessionNew:     a.newSession,
		sdk.AgentMethodSessionLoad:    a.loadSession,
		sdk.AgentMethodSessionPrompt:  a.prompt,
		sdk.AgentMethodSessionCancel:  a.cancel,
		sdk.AgentMethodSessionSetMode: a.setMode,
	}
}

// handle dispatches one request or notification. Every method but
// initialize needs a negotiated connection.
func (a *Agent) handle(ctx context.Context, method string, params json.RawMessage) (any, *sdk.RequestError) {
	hs := a.handlers
	h, ok := hs[method]
	if !ok {
		names := make([]string, 0, len(hs))
		for n := range hs {
			names = append(names, n)
		}
		sort.Strings(names)
		return nil, &sdk.RequestError{Code: codeMethodNotFound,
			Message: "Method not found: fluzo-agent acp does not implement " + quoteMethod(method) + "; it implements " + strings.Join(names, ", "),
			Data:    map[string]any{"method": method}}
	}
	a.mu.Lock()
	ready := a.initialized
	a.mu.Unlock()
	if !ready && method != sdk.AgentMethodInitialize {
		return nil, invalidRequest("%s before initialize; send initialize first to negotiate the protocol version", method)
	}
	return h(ctx, params)
}

func quoteMethod(m string) string { return `"` + m + `"` }

// initialize negotiates the protocol version: ACP v1 is the one spoken
// here, so any other request is answered with 1 and the client decides.
func (a *Agent) initialize(ctx context.Context, raw json.RawMessage) (any, *sdk.RequestError) {
	var p sdk.InitializeRequest
	if err := decodeParams(sdk.AgentMethodInitialize, raw, &p); err != nil {
		return nil, err
	}
	if err := require(sdk.AgentMethodInitialize, raw, "protocolVersion"); err != nil {
		return nil, err
	}
	a.mu.Lock()
	a.initialized = true
	a.mu.Unlock()
	return sdk.InitializeResponse{
		ProtocolVersion: sdk.ProtocolVersionNumber,
		AgentInfo:       &sdk.Implementation{Name: "fluzo-agent", Title: sdk.Ptr("Fluzo"), Version: a.opts.Version},
		AgentCapabilities: sdk.AgentCapabilities{
			LoadSession: true,
			// Text and embedded text resources become the task's request;
			// images and audio are not something the agent can use.
			PromptCapabilities: sdk.PromptCapabilities{EmbeddedContext: true},
		},
		AuthMethods: []sdk.AuthMethod{},
	}, nil
}

func (a *Agent) authenticate(ctx context.Context, raw json.RawMessage) (any, *sdk.RequestError) {
	return nil, invalidRequest("fluzo-agent acp offers no authentication methods: model credentials are references in auth.toml, resolved by the owner")
}

// require checks that a method's params name each field (the SDK's types
// cannot tell a missing number or string from its zero value).
func require(method string, raw json.RawMessage, fields ...string) *sdk.RequestError {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return invalidParams(method, "params must be a JSON object")
	}
	for _, f := range fields {
		if v, ok := m[f]; !ok || string(v) == "null" {
			return invalidParams(method, "the field %q is required", f)
		}
	}
	return nil
}

// ownerFor returns the running owner, starting `fluzo-agent serve` when
// there is none (or the last one went away).
func (a *Agent) ownerFor(ctx context.Context) (*owner, *sdk.RequestError) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.own != nil && !a.own.lost() {
		return a.own, nil
	}
	c, err := a.opts.StartOwner(ctx, a.root)
	if err != nil {
		return nil, fluzoError(err)
	}
	o := newOwner(c)
	// serve exits at once when it cannot own the workspace (busy, no
	// configuration, no consent): ask it something to know.
	if _, err := o.call(ctx, "status", port.Args{}); err != nil {
		c.CloseWithin(closeGrace)
		return nil, fluzoError(err)
	}
	a.own, a.yolo = o, false
	return o, nil
}

// workspace returns the workspace root ("" until a session named it).
func (a *Agent) workspace() string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.root
}

// notify sends one session/update; a failure means the editor is gone.
func (a *Agent) notify(ctx context.Context, id string, u sdk.SessionUpdate) error {
	return a.conn.SendNotification(ctx, sdk.ClientMethodSessionUpdate, sdk.SessionNotification{SessionId: sdk.SessionId(id), Update: u})
}
