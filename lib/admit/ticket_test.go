package admit

import (
	"context"
	"testing"
	"time"

	"github.com/josecorral/fluzo/lib/core"
)

func TestTicketHoldsBudgetAndSlotTogether(t *testing.T) {
	a := New(parse(t, "[agent]\nmodel = \"a\"\n"+model("a", "ca", "p", 1)+poolTOML("p", 1, 1, 8)))
	b := NewBudget(Limits{Turns: 9, ToolCalls: 9, Tokens: 1000, Active: time.Hour}, Usage{}, nil)
	b.Run()
	t1, err := a.AdmitWithBudget(context.Background(), b, Request{Model: "a"}, 600)
	if err != nil {
		t.Fatal(err)
	}
	// The second request fits the budget but not the slot: its wait is
	// bounded, and its reservation is released on failure.
	_, err = a.AdmitWithBudget(context.Background(), b, Request{Model: "a", MaxWait: time.Millisecond}, 300)
	if core.CodeOf(err) != core.CodeCapacityWaitTimeout {
		t.Fatalf("%v", err)
	}
	if _, err := b.ReserveTokens(400); err != nil {
		t.Fatalf("failed admission kept its reservation: %v", err)
	}
	// Over budget: no slot is taken.
	if _, err := a.AdmitWithBudget(context.Background(), b, Request{Model: "a"}, 1); core.CodeOf(err) != core.CodeBudgetExhausted {
		t.Fatalf("%v", err)
	}
	t1.Dispatched()
	used := int64(100)
	if n, err := t1.Complete(&used); n != 100 || err != nil {
		t.Fatal(n, err)
	}
	t2, err := a.AdmitWithBudget(context.Background(), b, Request{Model: "a"}, 50)
	if err != nil {
		t.Fatal(err)
	}
	t2.Dispatched()
	if n, _ := t2.Uncertain(); n != 50 || b.Usage().TokensEstimated != 1 || t2.Slot.State() != core.SlotUncertain {
		t.Errorf("uncertain ticket charged %d, usage %+v", n, b.Usage())
	}
}

func TestTicketWaitBoundedByActiveTime(t *testing.T) {
	clk := &fakeClock{t: time.Unix(0, 0)}
	a := New(parse(t, "[agent]\nmodel = \"a\"\n"+model("a", "ca", "p", 1)+poolTOML("p", 1, 1, 8)))
	b := NewBudget(Limits{Turns: 9, ToolCalls: 9, Tokens: 1000, Active: 10 * time.Second}, Usage{}, clk.now)
	b.Run()
	clk.add(10 * time.Second)
	if _, err := a.AdmitWithBudget(context.Background(), b, Request{Model: "a"}, 10); core.CodeOf(err) != core.CodeBudgetExhausted {
		t.Fatalf("no active time left: %v", err)
	}
	if st := a.Status()[0]; st.Occupied != 0 {
		t.Errorf("slot taken without active time: %+v", st)
	}
}
