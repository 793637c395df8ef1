package tools

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"
)

// serveLines runs a server over the given input and returns its replies.
func serveLines(t *testing.T, root, input string) []Reply {
	t.Helper()
	s, err := NewServer(Options{Root: root, Grace: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	pr, pw := io.Pipe()
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		s.Serve(ctx, strings.NewReader(input), pw)
		pw.Close()
	}()
	var out []Reply
	sc := bufio.NewScanner(pr)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var r Reply
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("reply is not JSON: %q", sc.Text())
		}
		if r.V != 1 || r.Type == "" {
			t.Fatalf("reply lacks v or type: %q", sc.Text())
		}
		out = append(out, r)
	}
	return out
}

func byRe(replies []Reply) map[string]Reply {
	m := map[string]Reply{}
	for _, r := range replies {
		m[r.Re] = r
	}
	return m
}

func TestServeAnswersEveryLineWithATypedRecord(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{"a.txt": "hi\n"})
	input := strings.Join([]string{
		`{"v":1,"id":"r1","tool":"view","args":{"path":"a.txt"}}`,
		`not json`,
		`{"v":2,"id":"r2","tool":"view","args":{"path":"a.txt"}}`,
		`{"v":1,"id":"r3","tool":"view","args":{"path":"a.txt"},"extra":true}`,
		`{"v":1,"id":"c1","control":"cancel","target":"nothing"}`,
		`{"v":1,"id":"c2","control":"explode","target":"r1"}`,
		`{"v":1,"id":"c3","control":"kill","pid":1}`,
		`{"v":1,"id":"r4","tool":"exec","args":{"argv":["true"]}}`,
	}, "\n") + "\n"
	replies := serveLines(t, root, input)
	if len(replies) != 8 {
		t.Fatalf("%d replies for 8 lines: %+v", len(replies), replies)
	}
	m := byRe(replies)
	if r := m["r1"]; r.Type != TypeResult || !*r.OK {
		t.Fatalf("r1 = %+v", r)
	}
	for re, code := range map[string]string{"r2": "invalid_request", "c1": "not_running", "c2": "invalid_request", "c3": "not_owned"} {
		if r := m[re]; r.Type != TypeError || *r.OK || string(r.Error.Code) != code {
			t.Errorf("%s = %+v, want %s", re, r, code)
		}
	}
	if r := m[""]; r.Type != TypeError || r.Error.Code != "invalid_request" {
		t.Errorf("bad lines answered with %+v", r)
	}
	if r := m["r4"]; r.Type != TypeResult {
		t.Errorf("r4 = %+v", r)
	}
}

func TestServeRunsReadsConcurrentlyAndFinishesInFlightWorkAtEOF(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{"a.txt": "hi\n"})
	var lines []string
	for i := 0; i < 20; i++ {
		lines = append(lines, `{"v":1,"id":"v`+string(rune('a'+i))+`","tool":"view","args":{"path":"a.txt"}}`)
	}
	lines = append(lines, `{"v":1,"id":"slow","tool":"shell","args":{"script":"sleep 30"}}`)
	replies := serveLines(t, root, strings.Join(lines, "\n")+"\n")
	m := byRe(replies)
	if len(m) != 21 {
		t.Fatalf("%d distinct replies, want 21", len(m))
	}
	var slow ProcessResult
	if err := json.Unmarshal(m["slow"].Result, &slow); err != nil || !slow.Cancelled {
		t.Fatalf("in-flight process at EOF: %s", m["slow"].Result)
	}
}
