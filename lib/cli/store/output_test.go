package storecli

import (
	"strings"
	"testing"
)

// Stored requests and commands are code more often than not: --json
// records keep "<", ">" and "&" as written.
func TestRecordKeepsCodeVerbatim(t *testing.T) {
	got := string(record("task", map[string]string{"request": "make i < n && p != nil hold", "verify": "go test ./... > out"}))
	if !strings.Contains(got, "make i < n && p != nil hold") || !strings.Contains(got, "go test ./... > out") || !strings.HasPrefix(got, `{"v":1,"type":"task",`) {
		t.Fatalf("record: %s", got)
	}
}
