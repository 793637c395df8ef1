package tools

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// A request that cannot be decoded is answered with its id when the id is
// readable, and always names its line, so a caller can find its mistake.
func TestUndecodableRequestsNameTheirLineAndID(t *testing.T) {
	srv, err := NewServer(Options{Root: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	in := strings.NewReader(`{"v":1,"id":"a","tool":"view","args":{"path":"x"},"bogus":1}` + "\nnot json\n")
	var out bytes.Buffer
	if err := srv.Serve(context.Background(), in, &out); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 2 {
		t.Fatalf("want 2 answers, got %q", out.String())
	}
	if !strings.Contains(lines[0], `"re":"a"`) || !strings.Contains(lines[0], "request line 1:") || !strings.Contains(lines[0], "bogus") {
		t.Errorf("first answer: %s", lines[0])
	}
	if !strings.Contains(lines[1], `"re":""`) || !strings.Contains(lines[1], "request line 2:") || !strings.Contains(lines[1], `"line":2`) {
		t.Errorf("second answer: %s", lines[1])
	}
}
