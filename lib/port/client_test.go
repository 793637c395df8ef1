package port

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/josecorral/fluzo/lib/core"
)

// The test binary doubles as a scripted serve: with FLUZO_FAKE_SERVE set
// it answers commands the way fluzo-agent serve does, so the client is
// tested against a real child process, pipes and exit statuses.
func TestMain(m *testing.M) {
	switch os.Getenv("FLUZO_FAKE_SERVE") {
	case "":
		os.Exit(m.Run())
	case "hang": // ignores the end of its input, like serve finishing a long task
		time.Sleep(time.Minute)
		os.Exit(0)
	case "busy":
		fmt.Fprintf(os.Stderr, "fluzo-agent: another process owns this workspace: instance ins_01ABC (pid %d, started 2026-12-01T18:00:00Z)\nhint: wait for it\n", os.Getppid())
		os.Exit(11)
	default:
		os.Exit(fakeServe())
	}
}

func fakeServe() int {
	sc := bufio.NewScanner(os.Stdin)
	out := json.NewEncoder(os.Stdout)
	for sc.Scan() {
		var cmd map[string]any
		if err := json.Unmarshal(sc.Bytes(), &cmd); err != nil {
			return 1
		}
		id, _ := cmd["id"].(string)
		switch cmd["cmd"] {
		case "start_task":
			out.Encode(map[string]any{"v": 1, "type": "ack", "re": id, "data": map[string]any{"state": "starting"}})
			out.Encode(map[string]any{"v": 1, "id": "evt_1", "seq": 1, "type": "task.created", "session": "ses_1", "task": "tsk_1", "data": map[string]any{"request": cmd["request"]}})
			out.Encode(map[string]any{"v": 1, "type": "live.delta", "task": "tsk_1", "kind": "content", "text": "hel"})
			fmt.Println(`not json at all`)
			out.Encode(map[string]any{"v": 1, "type": "result", "status": "completed", "task": "tsk_1",
				"verification": map[string]any{"completed": true, "verification": "passed"},
				"diff":         map[string]any{"type": "diff_summary", "pre_existing": []string{"old.txt"}, "changed": []any{map[string]any{"path": "src/lib.rs", "kind": "modified"}}}})
		case "explode":
			out.Encode(map[string]any{"v": 1, "type": "error", "re": id, "error": map[string]any{"code": "invalid_request", "message": "unknown command explode", "hint": "see fluzo-agent(1)"}})
		case "die":
			fmt.Fprintln(os.Stderr, "fluzo-agent: storage went away")
			return 13
		default:
			out.Encode(map[string]any{"v": 1, "type": "ack", "re": id, "data": cmd})
		}
	}
	return 0
}

func startFake(t *testing.T, mode string) *Client {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	c, err := Start(context.Background(), Options{Path: self, Env: append(os.Environ(), "FLUZO_FAKE_SERVE="+mode)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func next(t *testing.T, c *Client) Record {
	t.Helper()
	select {
	case r, ok := <-c.Records():
		if !ok {
			t.Fatalf("port closed early: %v", c.Err())
		}
		return r
	case <-time.After(10 * time.Second):
		t.Fatal("no record within 10s")
	}
	return Record{}
}

func TestClientTypesEveryRecordShape(t *testing.T) {
	c := startFake(t, "serve")
	name, args := StartTask("fix it", "", true, []string{"exec:cargo test"})
	id, err := c.Send(name, args)
	if err != nil {
		t.Fatal(err)
	}
	ack := next(t, c)
	if ack.Kind != KindAck || ack.Ack.Re != id || string(ack.Ack.Data) != `{"state":"starting"}` {
		t.Fatalf("ack = %+v %s", ack, ack.Raw)
	}
	ev := next(t, c)
	if ev.Kind != KindEvent || ev.Event.Type != "task.created" || ev.Event.Seq != 1 || ev.Event.Task != "tsk_1" {
		t.Fatalf("event = %+v", ev.Event)
	}
	live := next(t, c)
	if live.Kind != KindLive || live.Live.Type != "live.delta" || live.Live.Text != "hel" {
		t.Fatalf("live = %+v", live.Live)
	}
	bad := next(t, c)
	if bad.Kind != KindLive || bad.Live.Type != "live.protocol_error" || !strings.Contains(bad.Live.Message, "not JSON") {
		t.Fatalf("a malformed line must surface as a protocol error record, got %+v", bad.Live)
	}
	res := next(t, c)
	if res.Kind != KindResult || res.Result.Status != "completed" || res.Result.Verification.Verification != "passed" ||
		len(res.Result.Diff.Changed) != 1 || res.Result.Diff.PreExisting[0] != "old.txt" {
		t.Fatalf("result = %+v", res.Result)
	}
}

func TestClientSendsStrictCommandsWithFreshIDs(t *testing.T) {
	c := startFake(t, "serve")
	id1, _ := c.Send(Approve("op_1", "task"))
	id2, _ := c.Send(SetYolo(true))
	if id1 == id2 {
		t.Fatalf("ids must differ: %s %s", id1, id2)
	}
	a1, a2 := next(t, c), next(t, c)
	var echoed map[string]any
	json.Unmarshal(a1.Ack.Data, &echoed)
	if a1.Ack.Re != id1 || echoed["cmd"] != "approve" || echoed["operation"] != "op_1" || echoed["scope"] != "task" || echoed["v"] != 1.0 {
		t.Fatalf("approve went out as %v", echoed)
	}
	json.Unmarshal(a2.Ack.Data, &echoed)
	if a2.Ack.Re != id2 || echoed["on"] != true {
		t.Fatalf("set_yolo went out as %v", echoed)
	}
	// Optional fields stay off the wire: serve rejects unknown or empty ones.
	_, args := StartTask("x", "", false, nil)
	if len(args) != 1 {
		t.Fatalf("start_task with only a request has fields %v", args)
	}
}

func TestClientTypesErrorReplies(t *testing.T) {
	c := startFake(t, "serve")
	id, _ := c.Send("explode", nil)
	r := next(t, c)
	if r.Kind != KindError || r.Error.Re != id || r.Error.Error.Code != core.CodeInvalidRequest || r.Error.Error.Hint == "" {
		t.Fatalf("error reply = %+v", r.Error)
	}
}

func TestLostPortIsATypedError(t *testing.T) {
	c := startFake(t, "serve")
	c.Send("die", nil)
	select {
	case <-c.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("port not lost")
	}
	var lost *LostError
	if !errors.As(c.Err(), &lost) || lost.ExitCode != 13 || lost.Code() != core.CodeStorageError || !strings.Contains(lost.Stderr, "storage went away") {
		t.Fatalf("lost = %#v", c.Err())
	}
	if _, err := c.Send(Status()); err == nil {
		t.Fatal("sending to a lost port must fail")
	}
}

func TestBusyWorkspaceNamesTheOwner(t *testing.T) {
	c := startFake(t, "busy")
	<-c.Done()
	var lost *LostError
	if !errors.As(c.Err(), &lost) {
		t.Fatalf("err = %v", c.Err())
	}
	o, ok := lost.BusyOwner()
	if !ok || o.PID != os.Getpid() || o.Instance != "ins_01ABC" || o.Since.IsZero() || !strings.Contains(o.Command, "port.test") {
		t.Fatalf("owner = %+v ok=%v", o, ok)
	}
}

func TestCloseEndsInputAndWaits(t *testing.T) {
	c := startFake(t, "serve")
	if err := c.Close(); err != nil {
		t.Fatalf("clean close: %v", err)
	}
	if _, ok := <-c.Records(); ok {
		t.Fatal("records must be closed after Close")
	}
}

func TestCloseWithinKillsAServeThatDoesNotExit(t *testing.T) {
	c := startFake(t, "hang")
	start := time.Now()
	c.CloseWithin(300 * time.Millisecond)
	var lost *LostError
	if !errors.As(c.Err(), &lost) || lost.ExitCode != -1 || time.Since(start) > 5*time.Second {
		t.Fatalf("err = %v after %v", c.Err(), time.Since(start))
	}
}

func TestDecodeRejectsNonPortLines(t *testing.T) {
	for _, line := range []string{`[]`, `{"v":2,"type":"ack"}`, `{"v":1}`, `{"v":1,"type":"error","re":"1"}`} {
		if _, err := Decode([]byte(line)); err == nil || core.AsError(err).Code != core.CodeInvalidRequest {
			t.Errorf("%s: err = %v", line, err)
		}
	}
}
