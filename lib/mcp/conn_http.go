package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"
	"sync"
)

// httpConn is MCP's streamable HTTP transport as a client: every message
// is POSTed to the endpoint; the answer to a request comes back as JSON
// or as an event stream that may carry the server's own requests and
// notifications first. The session id the server assigns at initialize
// and the negotiated revision go with every later POST. Once the session
// is initialized the client also opens the server's stream for messages
// outside any request (a GET; a server without one answers 405), where a
// tools list change is announced.
type httpConn struct {
	client   *http.Client
	endpoint string

	mu       sync.Mutex
	session  string
	version  string
	bodies   map[io.Closer]bool
	closed   bool
	incoming chan []byte
	quit     chan struct{}
}

func newHTTPConn(client *http.Client, endpoint string) *httpConn {
	return &httpConn{client: client, endpoint: endpoint, bodies: map[io.Closer]bool{},
		incoming: make(chan []byte, 64), quit: make(chan struct{})}
}

// sessionHeaders names the session and the negotiated revision, once the
// server has given them.
func (c *httpConn) sessionHeaders(h http.Header) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.session != "" {
		h.Set("Mcp-Session-Id", c.session)
	}
	if c.version != "" {
		h.Set("MCP-Protocol-Version", c.version)
	}
}

func (c *httpConn) negotiated(version string) {
	c.mu.Lock()
	c.version = version
	c.mu.Unlock()
}

func (c *httpConn) send(ctx context.Context, msg []byte) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.endpoint, bytes.NewReader(msg))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	c.sessionHeaders(req.Header)
	resp, err := c.client.Do(req)
	if err != nil {
		return err
	}
	if id := resp.Header.Get("Mcp-Session-Id"); id != "" {
		c.mu.Lock()
		if c.session == "" {
			c.session = id
		}
		c.mu.Unlock()
	}
	switch {
	case resp.StatusCode == http.StatusAccepted:
		resp.Body.Close()
		return nil
	case resp.StatusCode < 200 || resp.StatusCode > 299:
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
		resp.Body.Close()
		if resp.StatusCode == http.StatusNotFound && req.Header.Get("Mcp-Session-Id") != "" {
			return fmt.Errorf("the MCP server no longer knows this session (HTTP 404)")
		}
		return fmt.Errorf("the MCP server answered HTTP %d: %s", resp.StatusCode, strings.TrimSpace(string(body)))
	}
	mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	if mt == "text/event-stream" {
		if !c.track(resp.Body) {
			return errSessionEnded
		}
		go c.events(resp.Body)
		return nil
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxMessageBytes+1))
	if err != nil {
		return err
	}
	if len(body) > maxMessageBytes {
		return fmt.Errorf("the server sent a message over %d bytes", maxMessageBytes)
	}
	return c.deliver(body)
}

// listen opens the server's stream of messages outside any request, if
// it has one.
func (c *httpConn) listen() {
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		<-c.quit
		cancel()
	}()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.endpoint, nil)
	if err != nil {
		return
	}
	req.Header.Set("Accept", "text/event-stream")
	c.sessionHeaders(req.Header)
	go func() {
		resp, err := c.client.Do(req)
		if err != nil {
			return
		}
		mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
		if resp.StatusCode != http.StatusOK || mt != "text/event-stream" || !c.track(resp.Body) {
			resp.Body.Close()
			return
		}
		c.events(resp.Body)
	}()
}

// deliver queues a JSON body: one message, or a batch of them.
func (c *httpConn) deliver(body []byte) error {
	body = bytes.TrimSpace(body)
	if len(body) == 0 {
		return nil
	}
	if body[0] != '[' {
		return c.push(body)
	}
	var batch []json.RawMessage
	if err := json.Unmarshal(body, &batch); err != nil {
		return fmt.Errorf("the MCP server's answer is not JSON-RPC: %w", err)
	}
	for _, m := range batch {
		if err := c.push(m); err != nil {
			return err
		}
	}
	return nil
}

func (c *httpConn) push(m []byte) error {
	select {
	case c.incoming <- m:
		return nil
	case <-c.quit:
		return errSessionEnded
	}
}

// track registers an open event stream, so close can end it.
func (c *httpConn) track(body io.ReadCloser) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		body.Close()
		return false
	}
	c.bodies[body] = true
	return true
}

// events reads one event stream to its end: each event's data is a
// message (data lines joined by newlines, as the format says).
func (c *httpConn) events(body io.ReadCloser) {
	defer func() {
		body.Close()
		c.mu.Lock()
		delete(c.bodies, body)
		c.mu.Unlock()
	}()
	r := bufio.NewReaderSize(body, 64<<10)
	var data []byte
	for {
		line, err := readLine(r, maxMessageBytes-len(data))
		if errors.Is(err, errLineTooLong) {
			return // a message over the bound ends the stream unread
		}
		l := bytes.TrimRight(line, "\r\n")
		switch {
		case len(l) == 0 && len(line) > 0:
			if len(data) > 0 {
				if c.push(data) != nil {
					return
				}
				data = nil
			}
		case bytes.HasPrefix(l, []byte("data:")):
			v := bytes.TrimPrefix(l[5:], []byte(" "))
			if len(data) > 0 {
				data = append(data, '\n')
			}
			data = append(data, v...)
		}
		if err != nil {
			if len(data) > 0 {
				c.push(data)
			}
			return
		}
	}
}

func (c *httpConn) recv() ([]byte, error) {
	select {
	case m := <-c.incoming:
		return m, nil
	case <-c.quit:
		return nil, io.EOF
	}
}

// close ends the open streams and, when the server gave a session, asks
// it to end the session (best effort).
func (c *httpConn) close() error {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return nil
	}
	c.closed = true
	for b := range c.bodies {
		b.Close()
	}
	session := c.session
	c.mu.Unlock()
	close(c.quit)
	if session != "" {
		ctx, cancel := context.WithTimeout(context.Background(), terminateWait)
		defer cancel()
		if req, err := http.NewRequestWithContext(ctx, http.MethodDelete, c.endpoint, nil); err == nil {
			c.sessionHeaders(req.Header)
			if resp, err := c.client.Do(req); err == nil {
				resp.Body.Close()
			}
		}
	}
	return nil
}
