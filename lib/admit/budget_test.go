package admit

import (
	"encoding/json"
	"sync"
	"testing"
	"time"

	"github.com/josecorral/fluzo/lib/config"
	"github.com/josecorral/fluzo/lib/core"
)

type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) now() time.Time      { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *fakeClock) add(d time.Duration) { c.mu.Lock(); c.t = c.t.Add(d); c.mu.Unlock() }

func details(t *testing.T, err error, dim string) map[string]any {
	t.Helper()
	fe := core.AsError(err)
	if fe == nil || fe.Code != core.CodeBudgetExhausted || fe.Details["dimension"] != dim {
		t.Fatalf("want %s exhausted, got %v", dim, err)
	}
	return fe.Details
}

func TestLimitsFromConfigDefaults(t *testing.T) {
	l := LimitsFromConfig(config.Defaults())
	if l.Turns != 30 || l.Active != 1200*time.Second || l.ToolCalls != 100 || l.Tokens != 200000 {
		t.Errorf("%s", l)
	}
}

func TestTurnsAndToolCalls(t *testing.T) {
	b := NewBudget(Limits{Turns: 2, ToolCalls: 1, Tokens: 10, Active: time.Hour}, Usage{Turns: 1}, nil)
	b.Run()
	if err := b.BeginTurn(); err != nil {
		t.Fatal(err)
	}
	d := details(t, b.BeginTurn(), DimTurns)
	if d["limit"] != int64(2) || d["consumed"] != int64(2) {
		t.Errorf("details %v", d)
	}
	b.BeginToolCall()
	details(t, b.BeginToolCall(), DimToolCalls)
	if _, err := b.Extend(DimTurns, 1, "user"); err != nil {
		t.Fatal(err)
	}
	if err := b.BeginTurn(); err != nil || b.Usage().Turns != 3 {
		t.Errorf("after extension: %v %+v", err, b.Usage())
	}
}

func TestActiveTimeExcludesUserWaits(t *testing.T) {
	clk := &fakeClock{t: time.Unix(0, 0)}
	b := NewBudget(Limits{Turns: 9, ToolCalls: 9, Tokens: 9, Active: 10 * time.Second}, Usage{}, clk.now)
	b.Run()
	clk.add(4 * time.Second)
	b.Pause() // waiting for an approval
	clk.add(time.Hour)
	b.Run()
	clk.add(3 * time.Second)
	if got := b.Usage().Active; got != 7*time.Second {
		t.Fatalf("active %s", got)
	}
	if b.RemainingActive() != 3*time.Second {
		t.Errorf("remaining %s", b.RemainingActive())
	}
	clk.add(3 * time.Second)
	d := details(t, b.BeginTurn(), DimActive)
	if d["consumed"] != int64(10) || d["limit"] != int64(10) {
		t.Errorf("details %v", d)
	}
	ev, err := b.Extend(DimActive, 5, "user")
	if err != nil || ev.Type != core.EvBudget {
		t.Fatal(err)
	}
	var data map[string]any
	json.Unmarshal(ev.Data, &data)
	if data["from"] != float64(10) || data["to"] != float64(15) || data["by"] != "user" {
		t.Errorf("extension event %v", data)
	}
	if b.Usage().Active != 10*time.Second {
		t.Error("extension reset consumption")
	}
}

func TestTokenReservationAndReconciliation(t *testing.T) {
	b := NewBudget(Limits{Turns: 9, ToolCalls: 9, Tokens: 1000, Active: time.Hour}, Usage{}, nil)
	b.Run()
	r1, err := b.ReserveTokens(600)
	if err != nil {
		t.Fatal(err)
	}
	d := details(t, func() error { _, err := b.ReserveTokens(500); return err }(), DimTokens)
	if d["reserved"] != int64(600) || d["requested"] != int64(500) {
		t.Errorf("details %v", d)
	}
	used := int64(250)
	if b.Reconcile(r1, &used) != 250 || b.Usage().Tokens != 250 {
		t.Fatalf("usage %+v", b.Usage())
	}
	r2, _ := b.ReserveTokens(300)
	if b.Reconcile(r2, nil) != 300 {
		t.Error("unknown usage not charged at the reservation")
	}
	if u := b.Usage(); u.Tokens != 550 || u.TokensEstimated != 1 {
		t.Errorf("usage %+v", u)
	}
	r3, _ := b.ReserveTokens(450)
	b.Release(r3)
	if b.Usage().Tokens != 550 {
		t.Error("released reservation was charged")
	}
	b.SetLimits(Limits{Turns: 9, ToolCalls: 9, Tokens: 500, Active: time.Hour})
	details(t, func() error { _, err := b.ReserveTokens(1); return err }(), DimTokens)
}

func TestBudgetConcurrentUse(t *testing.T) {
	b := NewBudget(Limits{Turns: 1000, ToolCalls: 1000, Tokens: 100000, Active: time.Hour}, Usage{}, nil)
	b.Run()
	var wg sync.WaitGroup
	for i := 0; i < 64; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < 20; j++ {
				b.BeginToolCall()
				if r, err := b.ReserveTokens(70); err == nil {
					n := int64(50)
					b.Reconcile(r, &n)
				}
			}
		}()
	}
	wg.Wait()
	u := b.Usage()
	if u.ToolCalls != 1000 || u.Tokens > 100000 {
		t.Errorf("usage %+v", u)
	}
}
