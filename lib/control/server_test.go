package control

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/josecorral/fluzo/lib/core"
)

func TestControlSocketRoundTrip(t *testing.T) {
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
	root := t.TempDir()
	handlers := map[string]Handler{
		"status": func(ctx context.Context, raw []byte) (any, error) {
			return map[string]string{"state": "running"}, nil
		},
		"kill": func(ctx context.Context, raw []byte) (any, error) {
			var a struct {
				core.Command
				Task string `json:"task"`
				Yes  bool   `json:"yes"`
			}
			if err := core.DecodeStrict(raw, &a); err != nil {
				return nil, err
			}
			if !a.Yes {
				return nil, core.Errorf(core.CodeConfirmationRequired, "kill needs confirmation")
			}
			return map[string]string{"killed": a.Task}, nil
		},
	}
	srv, err := Listen(root, handlers)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	ctx := context.Background()
	ans, err := Dial(ctx, root, map[string]any{"cmd": "status"})
	if err != nil || !strings.Contains(string(ans), `"type":"ack"`) || !strings.Contains(string(ans), `"running"`) {
		t.Fatalf("status: %s %v", ans, err)
	}
	ans, _ = Dial(ctx, root, map[string]any{"cmd": "kill", "task": "tsk_1"})
	var rec core.ErrorRecord
	json.Unmarshal(ans, &rec)
	if rec.Type != "error" || rec.Error.Code != core.CodeConfirmationRequired {
		t.Fatalf("kill without yes: %s", ans)
	}
	ans, _ = Dial(ctx, root, map[string]any{"cmd": "kill", "task": "tsk_1", "yes": true, "bogus": 1})
	json.Unmarshal(ans, &rec)
	if rec.Error == nil || rec.Error.Code != core.CodeInvalidRequest {
		t.Fatalf("unknown field accepted: %s", ans)
	}
	ans, _ = Dial(ctx, root, map[string]any{"cmd": "explode"})
	if !strings.Contains(string(ans), "unknown command") {
		t.Fatalf("unknown command: %s", ans)
	}
	if _, err := Dial(ctx, t.TempDir(), map[string]any{"cmd": "status"}); core.CodeOf(err) != core.CodeNotFound {
		t.Fatalf("no owner: %v", err)
	}
}
