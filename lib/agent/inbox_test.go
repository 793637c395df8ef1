package agent

import "testing"

func TestInboxOrderAndEditUntilConsumed(t *testing.T) {
	var b Inbox
	a := b.Queue("first")
	c := b.Queue("second")
	if err := b.Edit(a.ID, "first, edited"); err != nil {
		t.Fatal(err)
	}
	got := b.Take()
	if len(got) != 2 || got[0].Text != "first, edited" || got[1].ID != c.ID {
		t.Fatalf("take: %+v", got)
	}
	if err := b.Edit(a.ID, "too late"); err == nil {
		t.Fatal("a consumed intervention was edited")
	}
	if len(b.Take()) != 0 || b.Edit("msg_nope", "x") == nil {
		t.Fatal("inbox state wrong")
	}
}
