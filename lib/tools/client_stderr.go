package tools

import (
	"strings"
	"sync"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/termsafe"
)

// stderrTailBytes is how much of a backend's stderr is kept: enough for
// "Permission denied (publickey)" or "fluzo-tool: command not found".
const stderrTailBytes = 2048

// stderrTail keeps the last bytes a backend wrote on stderr, so that a
// backend that closes its output can be explained by its own words.
type stderrTail struct {
	mu  sync.Mutex
	buf []byte
}

func (t *stderrTail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > stderrTailBytes {
		t.buf = append([]byte(nil), t.buf[len(t.buf)-stderrTailBytes:]...)
	}
	return len(p), nil
}

func (t *stderrTail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return strings.TrimSpace(string(t.buf))
}

// closedOutput is the error of a backend whose output ended: its stderr
// tail, made safe for a terminal, is the hint when it wrote one.
func closedOutput(tail *stderrTail) *core.Error {
	err := core.Errorf(core.CodeFailed, "the fluzo-tool server closed its output")
	if tail != nil {
		if s := tail.String(); s != "" {
			return err.WithHint("its stderr ended with: %s", termsafe.Line(strings.Join(strings.Fields(s), " ")))
		}
	}
	return err.WithHint("check its stderr")
}
