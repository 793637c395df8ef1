package control

import (
	"bufio"
	"context"
	"encoding/json"
	"net"

	"github.com/josecorral/fluzo/lib/core"
)

// Dial sends one command to the owner of root and returns the raw
// answer line.
func Dial(ctx context.Context, root string, cmd map[string]any) (json.RawMessage, error) {
	path := SocketPath(root)
	var d net.Dialer
	conn, err := d.DialContext(ctx, "unix", path)
	if err != nil {
		return nil, core.Wrap(err, core.CodeNotFound, "no fluzo-agent is running for "+root).
			WithHint("start one with 'fluzo-agent run' or 'fluzo-agent serve' in that workspace")
	}
	defer conn.Close()
	// The listener must be our own user's fluzo-agent: a socket planted by
	// someone else would receive our commands and could forge answers.
	if uc, ok := conn.(*net.UnixConn); ok {
		if err := checkPeer(uc); err != nil {
			return nil, core.Errorf(core.CodePermissionDenied, "the control socket %s is served by another user's process; nothing was sent", path).
				WithHint("remove that socket or set XDG_RUNTIME_DIR to a private directory")
		}
	}
	cmd["v"] = core.WireVersion
	if _, ok := cmd["id"]; !ok {
		cmd["id"] = "c1"
	}
	sc := bufio.NewScanner(conn)
	sc.Buffer(make([]byte, 64<<10), 4<<20)
	if err := json.NewEncoder(conn).Encode(cmd); err != nil {
		// An owner that refuses the connection (another user's peer)
		// answers and closes without reading: its answer is still there.
		if sc.Scan() {
			return append(json.RawMessage{}, sc.Bytes()...), nil
		}
		return nil, core.Wrap(err, core.CodeFailed, "cannot send the control command")
	}
	if !sc.Scan() {
		return nil, core.Errorf(core.CodeFailed, "the owner closed the control connection without answering").WithHint("check that fluzo-agent is still running")
	}
	return append(json.RawMessage{}, sc.Bytes()...), nil
}
