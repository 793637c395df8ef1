package tools_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/josecorral/fluzo/lib/cli/tool"
	"github.com/josecorral/fluzo/lib/tools"
	"github.com/josecorral/fluzo/lib/tools/sandbox"
)

// TestMain lets this test binary stand in for fluzo-tool, so StartServer
// is tested against a real child process speaking over real pipes.
func TestMain(m *testing.M) {
	if os.Getenv("FLUZO_TOOL_TEST_AS_BINARY") == "1" || sandbox.IsLaunch(os.Args) {
		os.Exit(tool.Main())
	}
	if root := os.Getenv("FLUZO_TOOL_TEST_AS_OWNER"); root != "" {
		os.Exit(actAsOwner(root))
	}
	os.Exit(m.Run())
}

func TestStartServerSpeaksToAChildProcess(t *testing.T) {
	t.Setenv("FLUZO_TOOL_TEST_AS_BINARY", "1")
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "a.txt"), []byte("hi\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c, err := tools.StartServer(ctx, root, os.Args[0], "--grace", "300ms")
	if err != nil {
		t.Fatal(err)
	}
	res, err := c.Call(ctx, "view", json.RawMessage(`{"path":"a.txt"}`))
	if err != nil {
		t.Fatal(err)
	}
	var v tools.ViewResult
	if err := res.Decode(&v); err != nil || v.Version != tools.Version([]byte("hi\n")) {
		t.Fatalf("view through the child: %+v, %v", v, err)
	}
	res, err = c.Call(ctx, "view", json.RawMessage(`{"path":"../escape"}`))
	if err != nil || res.OK || res.Err.Code != "outside_root" {
		t.Fatalf("escape through the child: %+v, %v", res, err)
	}
	// A context that ends cancels the request and still yields its result.
	short, stop := context.WithTimeout(ctx, 300*time.Millisecond)
	defer stop()
	res, err = c.Call(short, "shell", json.RawMessage(`{"script":"sleep 30"}`))
	var p tools.ProcessResult
	// Whichever lands first — the client's cancel or the server-side cap
	// from the deadline (max_seconds) — stops it.
	if err != nil || res.Decode(&p) != nil || !(p.Cancelled || p.TimedOut) {
		t.Fatalf("cancelled call: %+v, %v", res, err)
	}
	if err := c.Close(); err != nil {
		t.Fatalf("close: %v", err)
	}
}
