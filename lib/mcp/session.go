package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"sync"
)

// conn carries JSON-RPC messages to and from one server (stdio: one
// message per line on its stdin and stdout; streamable HTTP: POSTed
// messages and the JSON or event-stream answers).
type conn interface {
	// send delivers one message; a request's answer arrives through recv.
	send(ctx context.Context, msg []byte) error
	// recv blocks for the server's next message; io.EOF once it is gone.
	recv() ([]byte, error)
	// close ends the connection (and, for stdio, the process).
	close() error
}

// errSessionEnded is the error of a call whose session ended first.
var errSessionEnded = errors.New("the connection to the MCP server ended")

// session is one connected server: requests out, answers matched to them
// by id, the server's own requests answered and its notifications taken.
type session struct {
	c             conn
	onListChanged func()
	version       string

	mu      sync.Mutex
	nextID  int64
	pending map[string]chan *message
	done    chan struct{}
	ended   error
	once    sync.Once
}

// connect opens a session over c: initialize, then the initialized
// notification.
func connect(ctx context.Context, c conn, onListChanged func()) (*session, error) {
	s := &session{c: c, onListChanged: onListChanged, pending: map[string]chan *message{}, done: make(chan struct{})}
	go s.read()
	var res initializeResult
	err := s.call(ctx, "initialize", initializeParams{ProtocolVersion: protocolVersion, Capabilities: map[string]any{},
		ClientInfo: implementation{Name: "fluzo", Version: clientVersion}}, &res)
	if err != nil {
		s.Close()
		return nil, err
	}
	if !slices.Contains(supportedVersions, res.ProtocolVersion) {
		s.Close()
		return nil, fmt.Errorf("the server speaks MCP revision %q; Fluzo speaks %v", res.ProtocolVersion, supportedVersions)
	}
	s.version = res.ProtocolVersion
	if hv, ok := c.(interface{ negotiated(string) }); ok {
		hv.negotiated(res.ProtocolVersion)
	}
	if err := s.notify(ctx, "notifications/initialized", map[string]any{}); err != nil {
		s.Close()
		return nil, err
	}
	if l, ok := c.(interface{ listen() }); ok {
		l.listen()
	}
	return s, nil
}

// read takes every message the server sends until the connection ends.
func (s *session) read() {
	for {
		raw, err := s.c.recv()
		if err != nil {
			if errors.Is(err, io.EOF) {
				err = errSessionEnded
			}
			s.end(err)
			return
		}
		var m message
		if json.Unmarshal(raw, &m) != nil {
			continue // not a message: nothing to answer it with
		}
		switch {
		case m.isResponse():
			s.mu.Lock()
			ch := s.pending[string(m.ID)]
			delete(s.pending, string(m.ID))
			s.mu.Unlock()
			if ch != nil {
				ch <- &m
			}
		case len(m.ID) > 0:
			go s.answer(&m)
		case m.Method == "notifications/tools/list_changed":
			if s.onListChanged != nil {
				s.onListChanged()
			}
		}
	}
}

// answer replies to a request from the server: a ping is answered, and
// everything else (sampling, roots, elicitation — none declared) refused.
func (s *session) answer(m *message) {
	reply := message{JSONRPC: "2.0", ID: m.ID}
	if m.Method == "ping" {
		reply.Result = json.RawMessage(`{}`)
	} else {
		reply.Error = &rpcError{Code: codeMethodNotFound, Message: "the Fluzo client does not offer " + m.Method}
	}
	if b, err := json.Marshal(reply); err == nil {
		s.c.send(context.Background(), b)
	}
}

// end records why the session ended and fails every waiting call.
func (s *session) end(err error) {
	s.once.Do(func() {
		s.mu.Lock()
		s.ended = err
		pending := s.pending
		s.pending = map[string]chan *message{}
		s.mu.Unlock()
		close(s.done)
		for _, ch := range pending {
			close(ch)
		}
	})
}

// call sends a request and waits for its answer; a JSON-RPC error is
// returned as *rpcError, anything else means no answer came.
func (s *session) call(ctx context.Context, method string, params, result any) error {
	p, err := json.Marshal(params)
	if err != nil {
		return err
	}
	s.mu.Lock()
	if s.ended != nil {
		s.mu.Unlock()
		return s.ended
	}
	s.nextID++
	id := json.RawMessage(strconv.FormatInt(s.nextID, 10))
	ch := make(chan *message, 1)
	s.pending[string(id)] = ch
	s.mu.Unlock()
	b, _ := json.Marshal(message{JSONRPC: "2.0", ID: id, Method: method, Params: p})
	if err := s.c.send(ctx, b); err != nil {
		s.forget(id)
		return err
	}
	select {
	case m, ok := <-ch:
		if !ok {
			return s.endedErr()
		}
		if m.Error != nil {
			return m.Error
		}
		if result == nil || len(m.Result) == 0 {
			return nil
		}
		if err := json.Unmarshal(m.Result, result); err != nil {
			return fmt.Errorf("the server's answer to %s is not what MCP defines: %w", method, err)
		}
		return nil
	case <-ctx.Done():
		s.forget(id)
		// The server may stop working on it; the answer, if it comes, is
		// dropped.
		nctx, cancel := context.WithTimeout(context.Background(), terminateWait)
		s.notify(nctx, "notifications/cancelled", map[string]any{"requestId": id, "reason": ctx.Err().Error()})
		cancel()
		return ctx.Err()
	}
}

func (s *session) forget(id json.RawMessage) {
	s.mu.Lock()
	delete(s.pending, string(id))
	s.mu.Unlock()
}

func (s *session) endedErr() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ended != nil {
		return s.ended
	}
	return errSessionEnded
}

func (s *session) notify(ctx context.Context, method string, params any) error {
	p, err := json.Marshal(params)
	if err != nil {
		return err
	}
	b, _ := json.Marshal(message{JSONRPC: "2.0", Method: method, Params: p})
	return s.c.send(ctx, b)
}

// tools lists every page of the server's tools (at most limit).
func (s *session) tools(ctx context.Context, limit int) ([]*wireTool, error) {
	var all []*wireTool
	cursor := ""
	for {
		params := map[string]any{}
		if cursor != "" {
			params["cursor"] = cursor
		}
		var page listToolsResult
		if err := s.call(ctx, "tools/list", params, &page); err != nil {
			return nil, err
		}
		all = append(all, page.Tools...)
		if page.NextCursor == "" || len(all) > limit {
			return all, nil
		}
		cursor = page.NextCursor
	}
}

func (s *session) callTool(ctx context.Context, name string, args map[string]any) (*callToolResult, error) {
	var res callToolResult
	if err := s.call(ctx, "tools/call", callToolParams{Name: name, Arguments: args}, &res); err != nil {
		return nil, err
	}
	return &res, nil
}

// Done is closed when the session has ended.
func (s *session) Done() <-chan struct{} { return s.done }

// Close ends the session and its connection.
func (s *session) Close() error {
	err := s.c.close()
	s.end(errSessionEnded)
	return err
}
