package sim

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"testing"
	"time"
)

// TestShutdownReplyIsNeverLost: POST /_sim/shutdown must deliver its whole
// verdict before the server closes the connection. The reply used to race
// the Close it triggered: on a loaded machine the reply was still in the
// server's buffer when Close cut the connection, and fluzo-sim verify
// --stop failed with "cannot reach the simulator". Connections that write
// slowly make the loaded machine certain.
func TestShutdownReplyIsNeverLost(t *testing.T) {
	sc, err := Parse("test.json", []byte(twoTurns))
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	tln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := serveOn(context.Background(), sc, Options{}, slowListener{ln}, tln)
	t.Cleanup(func() { s.Close() })
	client := &http.Client{Transport: &http.Transport{Proxy: nil}}
	resp, err := client.Post(s.URL()+"/_sim/shutdown", "application/json", nil)
	if err != nil {
		t.Fatalf("shutdown reply lost: %v", err)
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		t.Fatalf("shutdown reply cut after %q: %v", body, err)
	}
	var v Verdict
	if err := json.Unmarshal(body, &v); err != nil || v.Type != "verdict" {
		t.Fatalf("shutdown reply is not a verdict: %q", body)
	}
	select {
	case <-s.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("the server did not shut down after its reply")
	}
}

// slowListener's connections pause before every write, as a descheduled
// server goroutine would.
type slowListener struct{ net.Listener }

func (l slowListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return slowConn{c}, nil
}

type slowConn struct{ net.Conn }

func (c slowConn) Write(p []byte) (int, error) {
	time.Sleep(50 * time.Millisecond)
	return c.Conn.Write(p)
}
