package tools

import (
	"context"
	"encoding/json"
	"os"
	"testing"
	"time"
)

// callAsync sends one request and delivers its result on the channel, so
// a test can act while the request runs.
func callAsync(ctx context.Context, t *testing.T, c *Client, tool string, args any) <-chan Result {
	done := make(chan Result, 1)
	raw, err := json.Marshal(args)
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		res, err := c.Call(ctx, tool, raw)
		if err != nil {
			t.Errorf("%s: transport: %v", tool, err)
		}
		done <- res
	}()
	return done
}

// waitForFile returns path's content once a child has written it.
func waitForFile(t *testing.T, path string) []byte {
	t.Helper()
	for i := 0; i < 2000; i++ {
		if b, err := os.ReadFile(path); err == nil && len(b) > 0 {
			return b
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("%s was never written", path)
	return nil
}
