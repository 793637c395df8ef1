package acp

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	sdk "github.com/coder/acp-go-sdk"
	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/port"
)

// Session modes. YOLO approves what would ask; denials, budgets, limits,
// confinement and version checks still hold. It lasts for this
// connection only and is never restored by session/load.
const (
	modeNormal = "normal"
	modeYolo   = "yolo"
)

// session is one ACP session: a Fluzo session of the workspace.
type session struct {
	id   string
	cwd  string
	mode string

	// running is the prompt now in flight (nil: none).
	running *promptRun
}

func modeState(current string) *sdk.SessionModeState {
	return &sdk.SessionModeState{
		CurrentModeId: sdk.SessionModeId(current),
		AvailableModes: []sdk.SessionMode{
			{Id: modeNormal, Name: "Normal", Description: sdk.Ptr("Operations that policy marks ask wait for your approval.")},
			{Id: modeYolo, Name: "YOLO", Description: sdk.Ptr("Operations that would ask run without asking; denials, budgets, limits and confinement still hold. Audited; never restored.")},
		},
	}
}

// checkCwd makes cwd the workspace root or a directory beneath it: a
// session works on the workspace its owner holds, nowhere else.
func (a *Agent) checkCwd(method, cwd string) *sdk.RequestError {
	if !filepath.IsAbs(cwd) {
		return invalidParams(method, "cwd %q must be an absolute path", cwd)
	}
	real, err := filepath.EvalSymlinks(cwd)
	if err != nil {
		return invalidParams(method, "cwd %s does not exist or cannot be read", cwd)
	}
	root, rerr := a.rootFor(real)
	if rerr != nil {
		return rerr
	}
	rel, err := filepath.Rel(root, real)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return invalidParams(method, "cwd %s is outside the workspace %s; start fluzo-agent acp with --workspace for that repository", cwd, root)
	}
	return nil
}

// rootFor returns the workspace root, taking it from dir (the first
// session's cwd) when none was given.
func (a *Agent) rootFor(dir string) (string, *sdk.RequestError) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.root != "" {
		return a.root, nil
	}
	if a.opts.ResolveRoot == nil {
		return "", fluzoError(core.Errorf(core.CodeConfigurationRequired, "no workspace was given").WithHint("start fluzo-agent acp with --workspace DIR"))
	}
	root, err := a.opts.ResolveRoot(context.Background(), dir)
	if err != nil {
		return "", fluzoError(err)
	}
	a.root = root
	return root, nil
}

func (a *Agent) newSession(ctx context.Context, raw json.RawMessage) (any, *sdk.RequestError) {
	var p sdk.NewSessionRequest
	if err := decodeParams(sdk.AgentMethodSessionNew, raw, &p); err != nil {
		return nil, err
	}
	if err := a.checkCwd(sdk.AgentMethodSessionNew, p.Cwd); err != nil {
		return nil, err
	}
	a.ignoreMCP(p.McpServers)
	own, rerr := a.ownerFor(ctx)
	if rerr != nil {
		return nil, rerr
	}
	data, err := own.call(ctx, "new_session", port.Args{})
	if err != nil {
		return nil, fluzoError(err)
	}
	var d struct {
		Session string `json:"session"`
	}
	json.Unmarshal(data, &d)
	a.mu.Lock()
	a.sessions[d.Session] = &session{id: d.Session, cwd: p.Cwd, mode: modeNormal}
	a.mu.Unlock()
	return sdk.NewSessionResponse{SessionId: sdk.SessionId(d.Session), Modes: modeState(modeNormal)}, nil
}

// ignoreMCP says so when the editor offers MCP servers: Fluzo's tools
// come from fluzo-tool and its own configuration, behind its policy.
func (a *Agent) ignoreMCP(servers []sdk.McpServer) {
	if len(servers) > 0 {
		a.logf("fluzo-agent acp: %d MCP server(s) offered by the editor are not used; configure MCP servers in .fluzo", len(servers))
	}
}

func (a *Agent) logf(format string, args ...any) {
	if a.opts.Log != nil {
		fmt.Fprintf(a.opts.Log, format+"\n", args...)
	}
}

// lookup returns an open session of this connection.
func (a *Agent) lookup(method string, id sdk.SessionId) (*session, *sdk.RequestError) {
	a.mu.Lock()
	defer a.mu.Unlock()
	s, ok := a.sessions[string(id)]
	if !ok {
		return nil, &sdk.RequestError{Code: codeNotFound, Message: "Resource not found: session " + quoteMethod(string(id)) + " is not open on this connection; create it with session/new or open it with session/load",
			Data: map[string]any{"method": method, "sessionId": id}}
	}
	return s, nil
}

// setMode switches a session between normal and YOLO. Turning YOLO on
// asks the user first, with the words the TUI uses; the owner audits
// the switch as a yolo event when it applies it.
func (a *Agent) setMode(ctx context.Context, raw json.RawMessage) (any, *sdk.RequestError) {
	var p sdk.SetSessionModeRequest
	if err := decodeParams(sdk.AgentMethodSessionSetMode, raw, &p); err != nil {
		return nil, err
	}
	if err := require(sdk.AgentMethodSessionSetMode, raw, "sessionId", "modeId"); err != nil {
		return nil, err
	}
	s, rerr := a.lookup(sdk.AgentMethodSessionSetMode, p.SessionId)
	if rerr != nil {
		return nil, rerr
	}
	mode := string(p.ModeId)
	if mode != modeNormal && mode != modeYolo {
		return nil, invalidParams(sdk.AgentMethodSessionSetMode, "modeId %q is not a mode of this agent; use %q or %q", mode, modeNormal, modeYolo)
	}
	if mode == modeYolo && s.mode != modeYolo {
		if err := a.confirmYolo(ctx, s); err != nil {
			return nil, err
		}
	}
	a.mu.Lock()
	s.mode = mode
	other := a.otherRunning(s)
	a.mu.Unlock()
	// The owner switches now, audited as the TUI's switch is (the running
	// task of this session included); while another session's task runs,
	// this session's mode applies when its own next prompt starts.
	if !other {
		if err := a.applyMode(ctx, s); err != nil {
			return nil, err
		}
	}
	if err := a.notify(ctx, s.id, sdk.SessionUpdate{CurrentModeUpdate: &sdk.SessionCurrentModeUpdate{CurrentModeId: sdk.SessionModeId(mode)}}); err != nil {
		return nil, fluzoError(err)
	}
	return sdk.SetSessionModeResponse{}, nil
}

const (
	optYoloOn   = "yolo_on"
	optYoloKeep = "keep_normal"
)

// confirmYolo asks the user to confirm YOLO through the editor's
// permission prompt; anything but an explicit yes keeps NORMAL.
func (a *Agent) confirmYolo(ctx context.Context, s *session) *sdk.RequestError {
	title := "Turn YOLO on for this session? Operations that would ask for approval run without asking. Still holds: explicit denials, budgets, limits, confinement and version checks. Audited as a yolo event; never restored on load."
	resp, err := sdk.SendRequest[sdk.RequestPermissionResponse](a.conn, ctx, sdk.ClientMethodSessionRequestPermission, sdk.RequestPermissionRequest{
		SessionId: sdk.SessionId(s.id),
		ToolCall:  sdk.ToolCallUpdate{ToolCallId: sdk.ToolCallId("mode_" + s.id), Title: sdk.Ptr(title), Kind: sdk.Ptr(sdk.ToolKindOther)},
		Options: []sdk.PermissionOption{
			{OptionId: optYoloOn, Name: "Turn YOLO on", Kind: sdk.PermissionOptionKindAllowOnce},
			{OptionId: optYoloKeep, Name: "Keep NORMAL", Kind: sdk.PermissionOptionKindRejectOnce},
		},
	})
	if err != nil {
		return fluzoError(err)
	}
	if resp.Outcome.Selected == nil || resp.Outcome.Selected.OptionId != optYoloOn {
		return invalidRequest("YOLO was not turned on: the user kept NORMAL")
	}
	return nil
}

// otherRunning says whether a session other than s runs a prompt; a.mu
// is held.
func (a *Agent) otherRunning(s *session) bool {
	for _, o := range a.sessions {
		if o != s && o.running != nil {
			return true
		}
	}
	return false
}

// applyMode sets the owner's YOLO switch to the session's mode. The
// switch is the owner's (one task runs at a time), so it follows the
// session whose prompt runs; each change is audited by the owner.
func (a *Agent) applyMode(ctx context.Context, s *session) *sdk.RequestError {
	a.mu.Lock()
	own, want, have := a.own, s.mode == modeYolo, a.yolo
	a.mu.Unlock()
	if own == nil || want == have {
		return nil
	}
	if _, err := own.call(ctx, "set_yolo", port.Args{"on": want}); err != nil {
		return fluzoError(err)
	}
	a.mu.Lock()
	a.yolo = want
	a.mu.Unlock()
	return nil
}
