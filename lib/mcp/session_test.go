package mcp

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeServer is the server end of an in-memory conn: it sees every
// message the client sends and answers with handle's messages.
type fakeServer struct {
	mu     sync.Mutex
	sent   []message
	in     chan []byte
	closed chan struct{}
	once   sync.Once
	handle func(m message) []any
}

func newFake(handle func(m message) []any) *fakeServer {
	return &fakeServer{in: make(chan []byte, 64), closed: make(chan struct{}), handle: handle}
}

func (f *fakeServer) send(_ context.Context, b []byte) error {
	var m message
	if err := json.Unmarshal(b, &m); err != nil {
		return err
	}
	f.mu.Lock()
	f.sent = append(f.sent, m)
	f.mu.Unlock()
	for _, out := range f.handle(m) {
		raw, _ := json.Marshal(out)
		select {
		case f.in <- raw:
		case <-f.closed:
			return io.ErrClosedPipe
		}
	}
	return nil
}

func (f *fakeServer) recv() ([]byte, error) {
	select {
	case b := <-f.in:
		return b, nil
	case <-f.closed:
		return nil, io.EOF
	}
}

func (f *fakeServer) close() error {
	f.once.Do(func() { close(f.closed) })
	return nil
}

func (f *fakeServer) methods() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []string
	for _, m := range f.sent {
		if m.Method != "" {
			out = append(out, m.Method)
		} else {
			out = append(out, "response:"+string(m.ID))
		}
	}
	return out
}

func result(id json.RawMessage, v any) map[string]any {
	return map[string]any{"jsonrpc": "2.0", "id": id, "result": v}
}

// everythingFake answers the handshake with version and tools/call with
// an echo; extra runs first and may answer a method itself.
func everythingFake(version string, extra func(m message) ([]any, bool)) *fakeServer {
	return newFake(func(m message) []any {
		if extra != nil {
			if out, ok := extra(m); ok {
				return out
			}
		}
		switch m.Method {
		case "initialize":
			return []any{result(m.ID, map[string]any{"protocolVersion": version, "capabilities": map[string]any{}, "serverInfo": map[string]any{"name": "fake", "version": "0"}})}
		case "tools/call":
			return []any{result(m.ID, map[string]any{"content": []any{map[string]any{"type": "text", "text": "ok"}}})}
		}
		return nil
	})
}

func TestTheHandshakeNegotiatesAndAnUnknownRevisionIsRefused(t *testing.T) {
	f := everythingFake("2025-06-18", nil)
	s, err := connect(context.Background(), f, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if s.version != "2025-06-18" || strings.Join(f.methods(), ",") != "initialize,notifications/initialized" {
		t.Fatalf("version %q, messages %v", s.version, f.methods())
	}
	var init initializeParams
	json.Unmarshal(f.sent[0].Params, &init)
	if init.ProtocolVersion != protocolVersion || init.ClientInfo.Name != "fluzo" || len(init.Capabilities) != 0 {
		t.Fatalf("initialize params %+v: the client must ask for its revision and declare no capability", init)
	}
	if _, err := connect(context.Background(), everythingFake("1999-01-01", nil), nil); err == nil || !strings.Contains(err.Error(), "1999-01-01") {
		t.Fatalf("err = %v, want the unknown revision refused by name", err)
	}
}

func TestTheServersRequestsAreAnsweredAndItsNotificationsTaken(t *testing.T) {
	changed := make(chan struct{}, 1)
	f := everythingFake(protocolVersion, func(m message) ([]any, bool) {
		if m.Method == "tools/call" {
			// Before the answer: a ping, a request the client does not
			// offer, and a list change.
			return []any{
				map[string]any{"jsonrpc": "2.0", "id": "p1", "method": "ping"},
				map[string]any{"jsonrpc": "2.0", "id": 77, "method": "sampling/createMessage", "params": map[string]any{}},
				map[string]any{"jsonrpc": "2.0", "method": "notifications/tools/list_changed"},
				result(m.ID, map[string]any{"content": []any{}}),
			}, true
		}
		return nil, false
	})
	s, err := connect(context.Background(), f, func() { changed <- struct{}{} })
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.callTool(context.Background(), "x", nil); err != nil {
		t.Fatal(err)
	}
	select {
	case <-changed:
	case <-time.After(5 * time.Second):
		t.Fatal("the list change was not taken")
	}
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		f.mu.Lock()
		var ping, refused *message
		for i := range f.sent {
			switch string(f.sent[i].ID) {
			case `"p1"`:
				ping = &f.sent[i]
			case "77":
				refused = &f.sent[i]
			}
		}
		f.mu.Unlock()
		if ping != nil && refused != nil {
			if string(ping.Result) != "{}" || ping.Error != nil {
				t.Fatalf("ping answered %+v", ping)
			}
			if refused.Error == nil || refused.Error.Code != codeMethodNotFound {
				t.Fatalf("sampling request answered %+v, want method not found", refused)
			}
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("the server's requests were not both answered: %v", f.methods())
}

func TestARefusedCallIsAnRPCErrorAndACancelledOneIsCancelledAtTheServer(t *testing.T) {
	f := everythingFake(protocolVersion, func(m message) ([]any, bool) {
		if m.Method == "tools/call" {
			var p callToolParams
			json.Unmarshal(m.Params, &p)
			if p.Name == "refuse" {
				return []any{map[string]any{"jsonrpc": "2.0", "id": m.ID, "error": map[string]any{"code": -32602, "message": "no such tool"}}}, true
			}
			return nil, true // never answered
		}
		return nil, false
	})
	s, err := connect(context.Background(), f, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	_, err = s.callTool(context.Background(), "refuse", nil)
	var re *rpcError
	if !errors.As(err, &re) || re.Code != -32602 {
		t.Fatalf("err = %v, want the server's JSON-RPC error", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := s.callTool(ctx, "hang", nil); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want the deadline", err)
	}
	if m := f.methods(); m[len(m)-1] != "notifications/cancelled" {
		t.Fatalf("messages %v: the abandoned call was not cancelled at the server", m)
	}
}

func TestAServerThatEndsFailsTheWaitingCall(t *testing.T) {
	f := everythingFake(protocolVersion, func(m message) ([]any, bool) { return nil, m.Method == "tools/call" })
	s, err := connect(context.Background(), f, nil)
	if err != nil {
		t.Fatal(err)
	}
	errc := make(chan error, 1)
	go func() { _, err := s.callTool(context.Background(), "x", nil); errc <- err }()
	time.Sleep(20 * time.Millisecond)
	f.close()
	select {
	case err := <-errc:
		var re *rpcError
		if err == nil || errors.As(err, &re) {
			t.Fatalf("err = %v, want the session's end (not a refusal)", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the call kept waiting for a server that was gone")
	}
	<-s.Done()
}

func TestToolsAreListedAcrossPages(t *testing.T) {
	f := everythingFake(protocolVersion, func(m message) ([]any, bool) {
		if m.Method != "tools/list" {
			return nil, false
		}
		var p struct{ Cursor string }
		json.Unmarshal(m.Params, &p)
		n := map[string]int{"": 0, "c1": 1, "c2": 2}[p.Cursor]
		next := map[int]string{0: "c1", 1: "c2"}[n]
		return []any{result(m.ID, map[string]any{"tools": []any{map[string]any{"name": fmt.Sprint("t", n), "inputSchema": map[string]any{"type": "object"}}}, "nextCursor": next})}, true
	})
	s, err := connect(context.Background(), f, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	tools, err := s.tools(context.Background(), 100)
	if err != nil || len(tools) != 3 || tools[2].Name != "t2" {
		t.Fatalf("tools %v, %v", tools, err)
	}
}

func TestAStdioServersLastMessageBeforeItExitsIsRead(t *testing.T) {
	cmd := exec.Command("sh", "-c", `read line; printf '{"jsonrpc":"2.0","method":"notifications/message"}\n{"jsonrpc":"2.0","id":1,"result":{}}\n'; exit 0`)
	c, err := startStdio(cmd)
	if err != nil {
		t.Fatal(err)
	}
	defer c.close()
	if err := c.send(context.Background(), []byte(`{"jsonrpc":"2.0","id":1,"method":"ping"}`)); err != nil {
		t.Fatal(err)
	}
	var got []string
	for {
		m, err := c.recv()
		if err != nil {
			break
		}
		got = append(got, string(m))
	}
	if len(got) != 2 || !strings.Contains(got[1], `"id":1`) {
		t.Fatalf("read %q before the end, want both messages", got)
	}
	if err := c.send(context.Background(), []byte("{\"a\":\n1}")); err == nil {
		t.Fatal("a message with a newline was written to a line protocol")
	}
}

func TestAStdioLineOverTheBoundEndsTheConnection(t *testing.T) {
	cmd := exec.Command("sh", "-c", fmt.Sprintf("head -c %d /dev/zero | tr '\\0' x; sleep 5", maxMessageBytes+10))
	c, err := startStdio(cmd)
	if err != nil {
		t.Fatal(err)
	}
	defer c.close()
	if m, err := c.recv(); err == nil {
		t.Fatalf("an unbounded line was returned (%d bytes)", len(m))
	}
}

// streamableServer is a minimal streamable HTTP MCP server: it checks the
// headers the client owes it and answers tools/call as an event stream.
type streamableServer struct {
	mu      sync.Mutex
	posts   []http.Header
	deletes int
	gets    int
}

func (h *streamableServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h.mu.Lock()
	defer h.mu.Unlock()
	switch r.Method {
	case http.MethodDelete:
		h.deletes++
		return
	case http.MethodGet:
		h.gets++
		w.WriteHeader(http.StatusMethodNotAllowed)
		return
	}
	h.posts = append(h.posts, r.Header.Clone())
	var m message
	json.NewDecoder(r.Body).Decode(&m)
	switch m.Method {
	case "initialize":
		w.Header().Set("Mcp-Session-Id", "sess-1")
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(result(m.ID, map[string]any{"protocolVersion": "2025-06-18", "capabilities": map[string]any{}}))
	case "tools/call":
		w.Header().Set("Content-Type", "text/event-stream")
		bw := bufio.NewWriter(w)
		fmt.Fprintf(bw, ": a comment\n\nevent: message\ndata: %s\n\n", `{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}`)
		answer, _ := json.Marshal(result(m.ID, map[string]any{"content": []any{map[string]any{"type": "text", "text": "streamed"}}}))
		// One message over two data lines, joined by a newline (split
		// where JSON allows white space).
		cut := strings.Index(string(answer), ",") + 1
		fmt.Fprintf(bw, "id: 1\ndata: %s\ndata: %s\n\n", answer[:cut], answer[cut:])
		bw.Flush()
	default:
		w.WriteHeader(http.StatusAccepted)
	}
}

func TestStreamableHTTPCarriesTheSessionAndReadsEventStreams(t *testing.T) {
	h := &streamableServer{}
	srv := httptest.NewServer(h)
	defer srv.Close()
	changed := make(chan struct{}, 1)
	s, err := connect(context.Background(), newHTTPConn(srv.Client(), srv.URL), func() { changed <- struct{}{} })
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	res, err := s.callTool(ctx, "x", map[string]any{"a": 1})
	if err != nil || len(res.Content) != 1 || res.Content[0].Text != "streamed" {
		t.Fatalf("result %+v, %v", res, err)
	}
	select {
	case <-changed:
	case <-time.After(5 * time.Second):
		t.Fatal("the list change in the stream was not taken")
	}
	// The listening stream is asked for beside the calls: wait for it
	// before closing.
	for deadline := time.Now().Add(10 * time.Second); ; {
		h.mu.Lock()
		gets := h.gets
		h.mu.Unlock()
		if gets > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the listening stream was never asked for")
		}
		time.Sleep(5 * time.Millisecond)
	}
	s.Close()
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.posts) != 3 {
		t.Fatalf("%d POSTs, want initialize, initialized, tools/call", len(h.posts))
	}
	if h.posts[0].Get("Mcp-Session-Id") != "" || !strings.Contains(h.posts[0].Get("Accept"), "text/event-stream") {
		t.Fatalf("initialize headers %v", h.posts[0])
	}
	for _, p := range h.posts[1:] {
		if p.Get("Mcp-Session-Id") != "sess-1" || p.Get("MCP-Protocol-Version") != "2025-06-18" {
			t.Fatalf("a later POST lacks the session or the revision: %v", p)
		}
	}
	if h.gets != 1 || h.deletes != 1 {
		t.Fatalf("GET %d, DELETE %d: want the listening stream asked for once and the session ended once", h.gets, h.deletes)
	}
}

func TestAnHTTPErrorIsNamed(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "quota exceeded", http.StatusTooManyRequests)
	}))
	defer srv.Close()
	_, err := connect(context.Background(), newHTTPConn(srv.Client(), srv.URL), nil)
	if err == nil || !strings.Contains(err.Error(), "429") || !strings.Contains(err.Error(), "quota exceeded") {
		t.Fatalf("err = %v", err)
	}
}

func TestAnEventOverTheBoundEndsTheStreamUndelivered(t *testing.T) {
	c := newHTTPConn(http.DefaultClient, "http://unused.invalid")
	big := strings.Repeat("x", maxMessageBytes)
	body := io.NopCloser(strings.NewReader("data: {\"jsonrpc\":\"2.0\",\"method\":\"a\"}\n\ndata: " + big + "\n\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"b\"}\n\n"))
	c.track(body)
	c.events(body)
	var got []string
	for len(c.incoming) > 0 {
		got = append(got, string(<-c.incoming))
	}
	if len(got) != 1 || !strings.Contains(got[0], `"a"`) {
		t.Fatalf("delivered %d messages, want only the one before the oversized event", len(got))
	}
}
