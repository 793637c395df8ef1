package tools

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/tools/confine"
)

// lineServer serves a pipe so a test can send raw request lines and read
// the replies as they come.
func lineServer(t *testing.T, opts Options) (send func(string), next func() Reply) {
	t.Helper()
	srv, err := NewServer(opts)
	if err != nil {
		t.Fatal(err)
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan struct{})
	go func() {
		srv.Serve(context.Background(), inR, outW)
		srv.Close()
		outW.Close()
		close(done)
	}()
	t.Cleanup(func() { inW.Close(); io.Copy(io.Discard, outR); <-done })
	rd := bufio.NewReader(outR)
	send = func(line string) {
		if _, err := io.WriteString(inW, line+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	next = func() Reply {
		line, err := rd.ReadBytes('\n')
		if err != nil {
			t.Fatal(err)
		}
		var r Reply
		if err := json.Unmarshal(line, &r); err != nil {
			t.Fatalf("reply %q: %v", line, err)
		}
		return r
	}
	return send, next
}

func ok(r Reply) bool { return r.OK != nil && *r.OK }

func request(id, tool string, args any) string {
	b, _ := json.Marshal(map[string]any{"v": 1, "id": id, "tool": tool, "args": args})
	return string(b)
}

// TestInFlightBytesAreBounded: while a 40 KiB request runs, a 30 KiB one
// would pass the 64 KiB limit and is refused with busy naming the numbers;
// once the first has answered the same request is served; a request over
// the limit by itself is request_too_large.
func TestInFlightBytesAreBounded(t *testing.T) {
	root := t.TempDir()
	const limit = 64 << 10
	send, next := lineServer(t, Options{Root: root, AuthFile: root + "/../auth.toml", MaxInFlight: limit})
	slow := request("slow", "exec", map[string]any{"argv": []string{"sh", "-c", "sleep 1", "pad", strings.Repeat("p", 40<<10)}})
	send(slow)
	write := request("w1", "write", map[string]any{"path": "big.txt", "content": strings.Repeat("c", 30<<10), "expect_version": Absent})
	send(write)
	r := next()
	if r.Re != "w1" || ok(r) || r.Error == nil || r.Error.Code != CodeBusy {
		t.Fatalf("second request while the first runs: %+v", r)
	}
	want := fmt.Sprintf("the request is %d bytes and %d bytes of requests are in flight; the limit is %d bytes", len(write), len(slow), limit)
	if r.Error.Message != want {
		t.Fatalf("busy message = %q, want %q", r.Error.Message, want)
	}
	if r = next(); r.Re != "slow" || !ok(r) {
		t.Fatalf("first request: %+v", r)
	}
	send(strings.Replace(write, `"w1"`, `"w2"`, 1))
	if r = next(); r.Re != "w2" || !ok(r) {
		t.Fatalf("the retried write after the first answered: %+v", r)
	}
	huge := request("w3", "write", map[string]any{"path": "huge.txt", "content": strings.Repeat("h", limit), "expect_version": Absent})
	send(huge)
	r = next()
	if ok(r) || r.Error == nil || r.Error.Code != CodeRequestTooLarge || !strings.Contains(r.Error.Message, fmt.Sprintf("at most %d bytes", limit)) {
		t.Fatalf("request over the limit: %+v", r)
	}
}

// TestOverlongPathsNameTheLimit: a 6000-character path and a 300-byte
// name get typed errors naming the kernel limit, for reads and writes.
func TestOverlongPathsNameTheLimit(t *testing.T) {
	c := newClient(t, t.TempDir())
	long := strings.Repeat("d/", 3000)
	for _, tool := range []string{"view", "write", "ls"} {
		args := map[string]any{"path": long}
		if tool == "write" {
			args["content"], args["expect_version"] = "x", Absent
		}
		e := callErr(t, c, tool, args, confine.CodePathTooLong)
		if !strings.Contains(e.Message, "the path is 6000 bytes long; the limit is 4095 bytes") {
			t.Fatalf("%s: message %q", tool, e.Message)
		}
	}
	name := "dir/" + strings.Repeat("n", 300) + ".txt"
	e := callErr(t, c, "write", map[string]any{"path": name, "content": "x", "expect_version": Absent}, confine.CodeNameTooLong)
	if !strings.Contains(e.Message, "is 304 bytes long; the limit is 255 bytes per name") {
		t.Fatalf("name message %q", e.Message)
	}
	if core.AsError(e).Hint == "" {
		t.Fatal("no hint")
	}
}
