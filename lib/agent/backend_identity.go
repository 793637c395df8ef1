package agent

import (
	"context"
	"encoding/json"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/store"
	"github.com/josecorral/fluzo/lib/tools"
)

// BackendIdentity is the tool backend an attempt ran against, recorded
// as a tool_backend.connected event: which command (the local fluzo-tool
// or the configured tools.backend), and the identity its handshake gave
// (host, resolved root and its device and inode, repository top level,
// HEAD and branch, protocol revision and release). With a remote backend
// this, not the owner's directory, is the workspace the task changed.
type BackendIdentity struct {
	Kind string `json:"kind"` // "local" or "command"
	// Command is the program of a configured backend (its first word;
	// the rest may carry host names the user did not mean to record).
	Command string `json:"command,omitempty"`
	tools.Hello
}

// Kinds of tool backend.
const (
	backendLocal   = "local"
	backendCommand = "command"
)

func backendIdentity(t *toolClient) *BackendIdentity {
	id := &BackendIdentity{Kind: backendLocal, Hello: t.hello}
	if t.backend != nil && t.backend.Remote {
		id.Kind, id.Command = backendCommand, t.backend.Argv[0]
	}
	return id
}

// checkBackendIdentity refuses to resume task against another workspace
// than the one its last attempt's backend reported: another host or
// another root means the earlier edits are not there.
func checkBackendIdentity(ctx context.Context, s *store.Store, task string, now *BackendIdentity) error {
	if now == nil {
		return nil
	}
	var last *BackendIdentity
	_, err := s.EachEvent(ctx, store.EventQuery{Task: task, Type: core.EvToolBackendConnected}, func(ev core.Event) error {
		var id BackendIdentity
		if json.Unmarshal(ev.Data, &id) == nil {
			last = &id
		}
		return nil
	})
	if err != nil || last == nil {
		return err
	}
	if last.Host != now.Host || last.Root != now.Root {
		return core.Errorf(core.CodeInterrupted, "task %s ran in %s on host %s; the tool backend now is %s on host %s", task, last.Root, last.Host, now.Root, now.Host).
			WithHint("resume with the tool backend the task ran with (tools.backend or --backend)")
	}
	return nil
}
