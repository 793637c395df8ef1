package acp

import (
	"context"
	"encoding/json"

	sdk "github.com/coder/acp-go-sdk"
	"github.com/josecorral/fluzo/lib/port"
)

// replayPage is how many stored events one query of a replay asks for.
const replayPage = 500

// loadSession opens a stored session and replays its history as updates
// before it answers. It only reads: no task starts and no provider is
// contacted. YOLO is never restored: a loaded session starts NORMAL.
func (a *Agent) loadSession(ctx context.Context, raw json.RawMessage) (any, *sdk.RequestError) {
	var p sdk.LoadSessionRequest
	if err := decodeParams(sdk.AgentMethodSessionLoad, raw, &p); err != nil {
		return nil, err
	}
	if err := a.checkCwd(sdk.AgentMethodSessionLoad, p.Cwd); err != nil {
		return nil, err
	}
	a.ignoreMCP(p.McpServers)
	own, rerr := a.ownerFor(ctx)
	if rerr != nil {
		return nil, rerr
	}
	id := string(p.SessionId)
	name, args := port.SessionOf(id)
	if _, err := own.call(ctx, name, args); err != nil {
		return nil, fluzoError(err)
	}
	a.mu.Lock()
	if old, ok := a.sessions[id]; ok && old.running != nil {
		a.mu.Unlock()
		return nil, invalidRequest("session %s runs a prompt on this connection; wait for its answer before loading it", id)
	}
	s := &session{id: id, cwd: p.Cwd, mode: modeNormal}
	a.sessions[id] = s
	a.mu.Unlock()
	if err := a.replay(ctx, own, id); err != nil {
		return nil, err
	}
	return sdk.LoadSessionResponse{Modes: modeState(modeNormal)}, nil
}

// replay pages the session's stored events in commit order and sends
// what each becomes.
func (a *Agent) replay(ctx context.Context, own *owner, id string) *sdk.RequestError {
	tr := newTranslator(a.workspace(), false, taskOps(own))
	var after int64
	for {
		data, err := own.call(ctx, "events", port.Args{"session": id, "after_seq": after, "limit": replayPage})
		if err != nil {
			return fluzoError(err)
		}
		var page struct {
			Events []port.Event `json:"events"`
			More   bool         `json:"more"`
		}
		if err := json.Unmarshal(data, &page); err != nil {
			return fluzoError(err)
		}
		for i := range page.Events {
			ev := &page.Events[i]
			after = ev.Seq
			for _, u := range tr.event(ev) {
				if err := a.notify(ctx, id, u); err != nil {
					return fluzoError(err)
				}
			}
		}
		if !page.More || len(page.Events) == 0 {
			return nil
		}
	}
}
