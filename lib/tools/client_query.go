package tools

import (
	"context"
	"encoding/json"
	"errors"
	"strings"

	"github.com/josecorral/fluzo/lib/core"
)

// Query asks the server one read-only query and decodes its answer into
// out. A query's own failure is its typed error; a transport failure is
// the client's error (Lost tells a vanished server apart).
func (c *Client) Query(ctx context.Context, name string, args, out any) error {
	raw, err := json.Marshal(args)
	if err != nil {
		return core.Wrap(err, core.CodeInternal, "cannot encode the "+name+" query")
	}
	if args == nil {
		raw = json.RawMessage("{}")
	}
	id := "q" + c.NextID()[1:]
	ch, err := c.send(id, Request{V: core.WireVersion, ID: id, Query: name, Args: raw})
	if err != nil {
		return &TransportError{Err: err}
	}
	res, err := (&Pending{ID: id, c: c, ch: ch}).Wait(ctx)
	if err != nil {
		return &TransportError{Err: err}
	}
	if !res.OK {
		if res.Err == nil {
			return core.Errorf(core.CodeFailed, "the %s query failed without an error record", name)
		}
		return res.Err
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(res.Data, out); err != nil {
		return core.Wrap(err, core.CodeFailed, "the backend's answer to the "+name+" query is not what this runtime expects").
			WithHint("install the same Fluzo release on both sides")
	}
	return nil
}

// Hello opens the session: it sends this runtime's protocol revision and
// settings and returns the backend's identity, or protocol_mismatch (both
// revisions named) when the backend speaks another revision or predates
// the handshake.
func (c *Client) Hello(ctx context.Context, settings *Settings) (Hello, error) {
	var h Hello
	err := c.Query(ctx, QueryHello, HelloArgs{Protocol: ProtocolVersion, Settings: settings}, &h)
	if err != nil {
		var transport *TransportError
		if fe := core.AsError(err); !errors.As(err, &transport) && fe.Code == core.CodeInvalidRequest && strings.Contains(fe.Message, `unknown field "query"`) {
			// A fluzo-tool from before the handshake refuses the unknown
			// "query" field: it speaks revision 1.
			return h, MismatchError(ProtocolVersion, 1).WithHint("the backend answered: %s; install the same Fluzo release on both sides", fe.Message)
		}
		return h, err
	}
	if h.Protocol != ProtocolVersion {
		return h, MismatchError(ProtocolVersion, h.Protocol)
	}
	return h, nil
}

// TransportError is a query that got no answer: the pipe to the backend
// failed, or the backend's output ended before it answered.
type TransportError struct{ Err error }

func (e *TransportError) Error() string { return e.Err.Error() }
func (e *TransportError) Unwrap() error { return e.Err }
