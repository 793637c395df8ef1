// Package proc runs tool child processes: an explicit environment, stdin
// from /dev/null, a new session and process group (so no controlling
// terminal), bounded head-and-tail output capture that keeps draining the
// pipes, and termination of the whole group with an honest report.
//
// The environment is built, never inherited whole: a child gets Baseline
// (PATH, HOME, locale, TMPDIR), Toolchain (RUSTUP_HOME, CARGO_HOME,
// GOPATH, GOCACHE, JAVA_HOME, VIRTUAL_ENV, NODE_PATH and the rest of that
// documented list) and LC_*, plus what configuration and the request name;
// credential-bearing names are never inherited (Secret).
package proc

import (
	"fmt"
	"sync"
)

// DefaultCaptureLimit bounds the retained output of each stream.
const DefaultCaptureLimit = 2 << 20

// capture keeps the first and the last half of a stream's bytes and counts
// everything, so a child can write without bound while memory stays fixed.
type capture struct {
	mu    sync.Mutex
	half  int
	head  []byte
	tail  []byte
	total int64
}

func newCapture(limit int) *capture {
	if limit <= 0 {
		limit = DefaultCaptureLimit
	}
	return &capture{half: limit / 2}
}

func (c *capture) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.total += int64(len(p))
	rest := p
	if room := c.half - len(c.head); room > 0 {
		n := min(room, len(rest))
		c.head = append(c.head, rest[:n]...)
		rest = rest[n:]
	}
	if len(rest) == 0 {
		return len(p), nil
	}
	c.tail = append(c.tail, rest...)
	if len(c.tail) > 2*c.half {
		c.tail = append([]byte(nil), c.tail[len(c.tail)-c.half:]...)
	}
	return len(p), nil
}

// Result returns the retained text, whether bytes were omitted, and the
// total byte count.
func (c *capture) Result() (string, bool, int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	tail := c.tail
	if len(tail) > c.half {
		tail = tail[len(tail)-c.half:]
	}
	kept := int64(len(c.head) + len(tail))
	if kept == c.total {
		return string(c.head) + string(tail), false, c.total
	}
	marker := fmt.Sprintf("\n[fluzo: %d bytes omitted; output truncated to the first and last %d bytes]\n", c.total-kept, c.half)
	return string(c.head) + marker + string(tail), true, c.total
}
