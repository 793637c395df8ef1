package admit

import (
	"context"
	"testing"
	"time"

	"github.com/josecorral/fluzo/lib/core"
)

// TestNewcomerNeverOvertakesTheQueue: PRD §43.3 requires FIFO fairness
// among foreground requests. With the pool's head waiter blocked by its
// model's own limit, a request for another model of the same pool finds
// pool capacity free, yet it must queue behind the head instead of
// jumping ahead of it.
func TestNewcomerNeverOvertakesTheQueue(t *testing.T) {
	a := New(parse(t, "[agent]\nmodel = \"a\"\n"+model("a", "ca", "p", 1)+model("b", "cb", "p", 1)+poolTOML("p", 2, 1, 8)))
	holder := admit(t, a, Request{Model: "a"})
	headDone := make(chan *Slot)
	go func() {
		s, err := a.Admit(context.Background(), Request{Model: "a"})
		if err != nil {
			t.Error(err)
		}
		headDone <- s
	}()
	waitQueued(t, a, "p", 1)
	_, err := a.Admit(context.Background(), Request{Model: "b", MaxWait: 20 * time.Millisecond})
	if core.CodeOf(err) != core.CodeCapacityWaitTimeout {
		t.Fatalf("a request for model b overtook the queued request for model a: %v", err)
	}
	holder.CancelBeforeDispatch()
	head := <-headDone
	if head == nil || head.Model != "a" {
		t.Fatalf("the head of the queue was not admitted: %+v", head)
	}
	admit(t, a, Request{Model: "b"}).CancelBeforeDispatch()
	head.CancelBeforeDispatch()
}
