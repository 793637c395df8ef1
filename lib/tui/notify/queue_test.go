package notify

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

func newQueue(t *testing.T, dur time.Duration, visible int) *Queue {
	t.Helper()
	q, err := New(Config{Duration: dur, MaxVisible: visible})
	if err != nil {
		t.Fatal(err)
	}
	return q
}

func TestConfigBoundsAreRejectedNeverClamped(t *testing.T) {
	for _, c := range []struct {
		cfg Config
		ok  bool
	}{
		{Config{0, 3}, false}, {Config{time.Second, 3}, true}, {Config{30 * time.Second, 3}, true}, {Config{31 * time.Second, 3}, false},
		{Config{1500 * time.Millisecond, 3}, false},
		{Config{5 * time.Second, 0}, false}, {Config{5 * time.Second, 1}, true}, {Config{5 * time.Second, 5}, true}, {Config{5 * time.Second, 6}, false},
	} {
		err := c.cfg.Validate()
		if (err == nil) != c.ok {
			t.Errorf("%+v: err %v, want ok=%v", c.cfg, err, c.ok)
		}
		if err != nil && !strings.Contains(err.Error(), "tui.notifications.") {
			t.Errorf("%+v: the error names no key: %v", c.cfg, err)
		}
	}
	q := newQueue(t, 5*time.Second, 3)
	if err := q.SetConfig(Config{Duration: 31 * time.Second, MaxVisible: 3}); err == nil {
		t.Fatal("31 s accepted")
	}
	if q.Config() != DefaultConfig() {
		t.Fatalf("a rejected edit changed the settings: %+v", q.Config())
	}
	if _, err := New(Config{Duration: 5 * time.Second, MaxVisible: 6}); err == nil {
		t.Fatal("New accepted max_visible 6")
	}
}

// A burst of 1000 distinct notices keeps 32 with a bounded aggregate of
// the rest; every retained text stays within its byte bound.
func TestBurstIsBounded(t *testing.T) {
	q := newQueue(t, 5*time.Second, 3)
	long := strings.Repeat("word ", 400)
	for i := 0; i < 1000; i++ {
		if got := q.Push(time.Duration(i)*time.Millisecond, fmt.Sprintf("info:%d", i), Info, long, long); got != Added {
			t.Fatalf("push %d: %v", i, got)
		}
	}
	if q.Len() != MaxRetained || q.Dropped() != 1000-MaxRetained {
		t.Fatalf("retained %d dropped %d", q.Len(), q.Dropped())
	}
	for _, n := range q.items {
		if len(n.Text) > MaxTextBytes || len(n.Hint) > MaxTextBytes || len(n.Key) > MaxKeyBytes {
			t.Fatalf("notice %d holds %d/%d/%d bytes", n.ID, len(n.Text), len(n.Hint), len(n.Key))
		}
	}
	if first := q.Visible(3)[0].Key; first != "info:968" {
		t.Fatalf("the oldest infos go first; the oldest kept is %s", first)
	}
	for i := 0; i < 20000; i++ {
		q.Push(time.Second, fmt.Sprintf("more:%d", i), Info, "x", "")
	}
	if q.Dropped() != MaxDropped {
		t.Fatalf("the dropped count is %d, want it saturated at %d", q.Dropped(), MaxDropped)
	}
	if len(q.seen) != seenKeys || q.Len() != MaxRetained {
		t.Fatal("the key memory or the stack grew")
	}
}

// Overflow drops lower priority first, oldest first within it; a
// newcomer never evicts a higher priority.
func TestOverflowDropsLowerPriorityFirst(t *testing.T) {
	q := newQueue(t, 30*time.Second, 5)
	q.Push(0, "err:0", Error, "failed", "")
	q.Push(0, "appr:0", Warning, "approval", "")
	for i := 0; i < MaxRetained-2; i++ {
		q.Push(0, fmt.Sprintf("info:%d", i), Info, "info", "")
	}
	q.Push(time.Second, "err:1", Error, "failed again", "")
	if q.Len() != MaxRetained || q.has("info:0") || !q.has("info:1") || !q.has("err:0") || !q.has("appr:0") || !q.has("err:1") {
		t.Fatalf("the oldest info should have gone: %v", q.keys())
	}
	for i := 2; i < 32; i++ { // 29 evict the infos, the 30th the approval
		q.Push(2*time.Second, fmt.Sprintf("err:%d", i), Error, "failed", "")
	}
	if q.has("appr:0") || !q.has("err:0") {
		t.Fatalf("after the infos, the approval goes before any failure: %v", q.keys())
	}
	before := q.keys()
	if got := q.Push(3*time.Second, "info:new", Info, "late info", ""); got != Dropped {
		t.Fatalf("an info pushed into a stack of failures: %v", got)
	}
	if fmt.Sprint(q.keys()) != fmt.Sprint(before) {
		t.Fatal("a newcomer evicted a higher priority")
	}
}

// The same event again is counted, not retained twice, and its deadline
// is the first delivery's; once gone it never resurfaces. Distinct
// events with the same text are distinct notices.
func TestDuplicatesCoalesceWithoutExtendingExpiry(t *testing.T) {
	q := newQueue(t, 5*time.Second, 3)
	q.Push(0, "result:tsk_1", Error, "Task failed", "")
	if got := q.Push(4*time.Second, "result:tsk_1", Error, "Task failed", ""); got != Coalesced {
		t.Fatalf("second delivery: %v", got)
	}
	n := q.Visible(3)[0]
	if q.Len() != 1 || n.Count != 2 || n.Deadline != 5*time.Second {
		t.Fatalf("len %d count %d deadline %v", q.Len(), n.Count, n.Deadline)
	}
	if got := Line(n, 40, "…"); got != "Task failed x2" {
		t.Fatalf("line %q", got)
	}
	q.Expire(5 * time.Second)
	if q.Len() != 0 {
		t.Fatal("the replay extended the deadline")
	}
	if got := q.Push(6*time.Second, "result:tsk_1", Error, "Task failed", ""); got != Replayed || q.Len() != 0 {
		t.Fatalf("a replay after expiry surfaced again: %v", got)
	}
	q.Push(7*time.Second, "result:tsk_2", Error, "Task failed", "")
	q.Push(7*time.Second, "result:tsk_3", Error, "Task failed", "")
	if q.Len() != 2 {
		t.Fatalf("two outcomes with the same text: %d notices", q.Len())
	}
	for i := 0; i < 2000; i++ {
		q.Push(8*time.Second, "result:tsk_2", Error, "Task failed", "")
	}
	if c := q.Visible(3)[0].Count; c != maxCount {
		t.Fatalf("count %d, want it saturated at %d", c, maxCount)
	}
}

// Expiry runs from receipt, for pending notices too: a notice that never
// had room to show does not surface later as new activity.
func TestExpiryWhilePending(t *testing.T) {
	q := newQueue(t, 5*time.Second, 3)
	for i := 0; i < 6; i++ {
		q.Push(time.Duration(i)*time.Second, fmt.Sprint("n", i), Info, fmt.Sprint("notice ", i), "")
	}
	// notice 0 expired at 5 s during the last push; 1..5 remain.
	if q.Len() != 5 || q.Pending(3) != 2 || q.Visible(3)[0].Key != "n1" {
		t.Fatalf("len %d pending %d first %s", q.Len(), q.Pending(3), q.Visible(3)[0].Key)
	}
	if d, ok := q.NextDeadline(); !ok || d != 6*time.Second {
		t.Fatalf("next deadline %v %v", d, ok)
	}
	if !q.Expire(9*time.Second) || q.Len() != 1 || q.Visible(3)[0].Key != "n5" {
		t.Fatalf("after 9 s: %v", q.keys())
	}
	q.Expire(10 * time.Second)
	if q.Len() != 0 || len(q.Visible(3)) != 0 {
		t.Fatal("pending notices outlived their deadline")
	}
	if _, ok := q.NextDeadline(); ok {
		t.Fatal("a deadline without notices")
	}
}

// The visible count is min(slots, max_visible), zero included; shrinking
// hides notices without discarding them or touching the setting.
func TestVisibleFollowsTheRoom(t *testing.T) {
	q := newQueue(t, 30*time.Second, 3)
	for i := 0; i < 5; i++ {
		q.Push(0, fmt.Sprint("n", i), Info, "x", "")
	}
	for slots, want := range map[int]int{-1: 0, 0: 0, 1: 1, 2: 2, 3: 3, 8: 3} {
		if got := len(q.Visible(slots)); got != want {
			t.Errorf("%d slots: %d visible, want %d", slots, got, want)
		}
	}
	if q.Len() != 5 || q.Config().MaxVisible != 3 {
		t.Fatal("a small room discarded notices or changed the setting")
	}
}

func TestDismissRemovesOnlyThatNotice(t *testing.T) {
	q := newQueue(t, 30*time.Second, 3)
	q.Push(0, "a", Warning, "approval", "")
	q.Push(0, "b", Info, "info", "")
	id := q.Visible(3)[0].ID
	if !q.Dismiss(id) || q.Dismiss(id) || q.Len() != 1 || q.Visible(3)[0].Key != "b" {
		t.Fatalf("dismiss: %v", q.keys())
	}
	if got := q.Push(1, "a", Warning, "approval", ""); got != Replayed {
		t.Fatalf("a dismissed event came back: %v", got)
	}
}

func TestTextIsSanitizedOneLine(t *testing.T) {
	q := newQueue(t, 5*time.Second, 3)
	q.Push(0, "k\x1b]52;c;AAAA\x07", Error, "line one\nline two \x1b]52;c;cHduZWQ=\x07 \x1b[2J\u202egnp.exe", "hint\r\x9b31m")
	n := q.Visible(1)[0]
	for _, s := range []string{n.Text, n.Hint, n.Key} {
		for _, bad := range []string{"\x1b", "\x07", "\n", "\r", "\u009b", "\u202e"} {
			if strings.Contains(s, bad) {
				t.Errorf("%q kept %q", s, bad)
			}
		}
	}
}

func (q *Queue) has(key string) bool {
	for _, n := range q.items {
		if n.Key == key {
			return true
		}
	}
	return false
}

func (q *Queue) keys() []string {
	var out []string
	for _, n := range q.items {
		out = append(out, n.Key)
	}
	return out
}
