package agent

import "testing"

func TestInboxOrderAndEditUntilConsumed(t *testing.T) {
	var b Inbox
	a := b.queue("first")
	c := b.queue("second")
	if err := b.edit(a.ID, "first, edited"); err != nil {
		t.Fatal(err)
	}
	got := b.take()
	if len(got) != 2 || got[0].Text != "first, edited" || got[1].ID != c.ID {
		t.Fatalf("take: %+v", got)
	}
	if err := b.edit(a.ID, "too late"); err == nil {
		t.Fatal("a consumed intervention was edited")
	}
	if len(b.take()) != 0 || b.edit("msg_nope", "x") == nil {
		t.Fatal("inbox state wrong")
	}
}
