package admit

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/josecorral/fluzo/lib/config"
	"github.com/josecorral/fluzo/lib/core"
)

func parse(t *testing.T, text string) *config.Config {
	t.Helper()
	cfg, err := config.Parse([]byte("schema_version = 1\n"+text), "test")
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

func model(id, capID, pool string, max int) string {
	return fmt.Sprintf("[models.%s]\nbase_url = \"http://127.0.0.1:1/v1\"\nmodel = \"m\"\ncapacity_id = %q\npool = %q\nmax_in_flight = %d\n", id, capID, pool, max)
}

func poolTOML(id string, max, reserved, queue int) string {
	return fmt.Sprintf("[capacity_pools.%s]\nmax_in_flight = %d\nforeground_reserved_slots = %d\nqueue_capacity = %d\nqueue_timeout_seconds = 600\n", id, max, reserved, queue)
}

func admit(t *testing.T, a *Admission, req Request) *Slot {
	t.Helper()
	s, err := a.Admit(context.Background(), req)
	if err != nil {
		t.Fatalf("admit %+v: %v", req, err)
	}
	return s
}

func waitQueued(t *testing.T, a *Admission, pool string, n int) {
	t.Helper()
	for i := 0; i < 5000; i++ {
		for _, p := range a.Status() {
			if p.ID == pool && p.Queued == n {
				return
			}
		}
		time.Sleep(time.Millisecond)
	}
	t.Fatalf("pool %s never had %d queued", pool, n)
}

func TestModelAndPoolMaximaUnderConcurrency(t *testing.T) {
	cfg := parse(t, "[agent]\nmodel = \"a\"\n"+model("a", "ca", "p", 2)+model("b", "cb", "p", 2)+model("c", "cc", "q", 5)+
		poolTOML("p", 3, 1, 1024)+poolTOML("q", 4, 1, 1024))
	a := New(cfg)
	var inModel = map[string]*int64{"a": new(int64), "b": new(int64), "c": new(int64)}
	var inPool = map[string]*int64{"p": new(int64), "q": new(int64)}
	var maxModel = map[string]*int64{"a": new(int64), "b": new(int64), "c": new(int64)}
	var maxPool = map[string]*int64{"p": new(int64), "q": new(int64)}
	bump := func(cur, max *int64) {
		n := atomic.AddInt64(cur, 1)
		for {
			m := atomic.LoadInt64(max)
			if n <= m || atomic.CompareAndSwapInt64(max, m, n) {
				return
			}
		}
	}
	var wg sync.WaitGroup
	for i := 0; i < 200; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			m := []string{"a", "b", "c"}[i%3]
			s, err := a.Admit(context.Background(), Request{Model: m, Class: Foreground})
			if err != nil {
				t.Error(err)
				return
			}
			bump(inModel[m], maxModel[m])
			bump(inPool[s.Pool], maxPool[s.Pool])
			s.Dispatched()
			time.Sleep(time.Duration(i%3) * 100 * time.Microsecond)
			atomic.AddInt64(inModel[m], -1)
			atomic.AddInt64(inPool[s.Pool], -1)
			if err := s.Complete(); err != nil {
				t.Error(err)
			}
		}(i)
	}
	wg.Wait()
	for m, want := range map[string]int64{"a": 2, "b": 2, "c": 4} {
		if got := atomic.LoadInt64(maxModel[m]); got > want || got == 0 {
			t.Errorf("model %s: max concurrent %d, limit %d", m, got, want)
		}
	}
	for p, want := range map[string]int64{"p": 3, "q": 4} {
		if got := atomic.LoadInt64(maxPool[p]); got > want {
			t.Errorf("pool %s: max concurrent %d, limit %d", p, got, want)
		}
	}
	for _, p := range a.Status() {
		if p.Occupied != 0 || p.Queued != 0 {
			t.Errorf("leaked: %+v", p)
		}
	}
}

func TestFIFOOrderAndQueueBounds(t *testing.T) {
	a := New(parse(t, "[agent]\nmodel = \"a\"\n"+model("a", "ca", "p", 1)+poolTOML("p", 1, 1, 5)))
	holder := admit(t, a, Request{Model: "a"})
	var order []int
	var mu sync.Mutex
	var wg sync.WaitGroup
	for i := 0; i < 5; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			s := admit(t, a, Request{Model: "a"})
			mu.Lock()
			order = append(order, i)
			mu.Unlock()
			s.CancelBeforeDispatch()
		}(i)
		waitQueued(t, a, "p", i+1)
	}
	_, err := a.Admit(context.Background(), Request{Model: "a"})
	if core.CodeOf(err) != core.CodeCapacityExhausted {
		t.Fatalf("sixth waiter: %v", err)
	}
	holder.CancelBeforeDispatch()
	wg.Wait()
	for i, got := range order {
		if got != i {
			t.Fatalf("admission order %v is not FIFO", order)
		}
	}
}

func TestWaitTimeoutAndCancelRemoveFromQueue(t *testing.T) {
	a := New(parse(t, "[agent]\nmodel = \"a\"\n"+model("a", "ca", "p", 1)+poolTOML("p", 1, 1, 8)))
	holder := admit(t, a, Request{Model: "a"})
	_, err := a.Admit(context.Background(), Request{Model: "a", MaxWait: 5 * time.Millisecond})
	if core.CodeOf(err) != core.CodeCapacityWaitTimeout {
		t.Fatalf("timeout: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { _, err := a.Admit(ctx, Request{Model: "a"}); done <- err }()
	waitQueued(t, a, "p", 1)
	cancel()
	if err := <-done; core.CodeOf(err) != core.CodeCancelled {
		t.Fatalf("cancel: %v", err)
	}
	if st := a.Status()[0]; st.Queued != 0 || st.Occupied != 1 {
		t.Errorf("status after cancel %+v", st)
	}
	holder.CancelBeforeDispatch()
	admit(t, a, Request{Model: "a"}).CancelBeforeDispatch()
}

func TestShadowSkippedUnderDefaultPool(t *testing.T) {
	a := New(config.Defaults())
	_, err := a.Admit(context.Background(), Request{Model: "laya", Class: Shadow})
	fe := core.AsError(err)
	if fe == nil || fe.Code != core.CodeCapacityExhausted || fe.Details["skipped"] != true {
		t.Fatalf("shadow under one-slot pool: %v", err)
	}
	admit(t, a, Request{Model: "coder"}).Complete()
}

func TestShadowAllowanceWithTwoSlotsOneReserved(t *testing.T) {
	cfg := parse(t, "[agent]\nmodel = \"coder\"\n"+model("coder", "flash", "srv", 2)+
		"[models.laya]\nprovider = \"laya_systemone\"\nendpoint = \"http://127.0.0.1:1/l\"\npool = \"srv\"\nmax_in_flight = 2\n"+
		poolTOML("srv", 2, 1, 8))
	a := New(cfg)
	shadow := admit(t, a, Request{Model: "laya", Class: Shadow})
	if _, err := a.Admit(context.Background(), Request{Model: "laya", Class: Shadow}); core.CodeOf(err) != core.CodeCapacityExhausted {
		t.Fatalf("second shadow admitted: %v", err)
	}
	fg := admit(t, a, Request{Model: "coder"})
	// The pool is full: foreground now queues, and shadow is skipped, not queued.
	done := make(chan *Slot)
	go func() { s, _ := a.Admit(context.Background(), Request{Model: "coder"}); done <- s }()
	waitQueued(t, a, "srv", 1)
	shadow.Dispatched()
	shadow.Complete()
	queued := <-done
	if _, err := a.Admit(context.Background(), Request{Model: "laya", Class: Shadow}); core.CodeOf(err) != core.CodeCapacityExhausted {
		t.Fatalf("shadow admitted into a full pool: %v", err)
	}
	fg.CancelBeforeDispatch()
	// One slot free but a foreground request queued? None now; shadow fits.
	s := admit(t, a, Request{Model: "laya", Class: Shadow})
	s.CancelBeforeDispatch()
	queued.CancelBeforeDispatch()
	// An uncertain shadow keeps its allowance.
	s = admit(t, a, Request{Model: "laya", Class: Shadow})
	s.Dispatched()
	s.Uncertain()
	if _, err := a.Admit(context.Background(), Request{Model: "laya", Class: Shadow}); core.CodeOf(err) != core.CodeCapacityExhausted {
		t.Fatalf("uncertain shadow freed its allowance: %v", err)
	}
}

func TestShadowNeverAdmittedWhileForegroundWaits(t *testing.T) {
	cfg := parse(t, "[agent]\nmodel = \"coder\"\n"+model("coder", "flash", "srv", 1)+
		"[models.laya]\nprovider = \"laya_systemone\"\nendpoint = \"http://127.0.0.1:1/l\"\npool = \"srv\"\nmax_in_flight = 2\n"+
		poolTOML("srv", 3, 1, 8))
	a := New(cfg)
	fg := admit(t, a, Request{Model: "coder"})
	go func() { s, _ := a.Admit(context.Background(), Request{Model: "coder"}); s.CancelBeforeDispatch() }()
	waitQueued(t, a, "srv", 1)
	_, err := a.Admit(context.Background(), Request{Model: "laya", Class: Shadow})
	if fe := core.AsError(err); fe == nil || fe.Details["reason"] != "foreground work is waiting" {
		t.Fatalf("shadow while foreground waits: %v", err)
	}
	fg.CancelBeforeDispatch()
	waitQueued(t, a, "srv", 0)
}

func TestUncertainSlotStaysOccupiedUntilReconciled(t *testing.T) {
	a := New(parse(t, "[agent]\nmodel = \"a\"\n"+model("a", "ca", "p", 1)+poolTOML("p", 1, 1, 8)))
	s := admit(t, a, Request{Model: "a"})
	if err := s.Complete(); err == nil {
		t.Fatal("completed a slot that was never dispatched")
	}
	s.Dispatched()
	s.Uncertain()
	if _, err := a.Admit(context.Background(), Request{Model: "a", MaxWait: time.Millisecond}); core.CodeOf(err) != core.CodeCapacityWaitTimeout {
		t.Fatalf("uncertain slot was freed: %v", err)
	}
	if err := s.Reconcile(); err != nil || s.State() != core.SlotCompleted {
		t.Fatal(err)
	}
	admit(t, a, Request{Model: "a"}).CancelBeforeDispatch()
}

func TestLoweredLimitDrainsAndRaisedLimitNeedsApply(t *testing.T) {
	two := parse(t, "[agent]\nmodel = \"a\"\n"+model("a", "ca", "p", 2)+poolTOML("p", 2, 1, 8))
	one := parse(t, "[agent]\nmodel = \"a\"\n"+model("a", "ca", "p", 2)+poolTOML("p", 1, 1, 8))
	a := New(two)
	s1, s2 := admit(t, a, Request{Model: "a"}), admit(t, a, Request{Model: "a"})
	s1.Dispatched()
	s2.Dispatched()
	a.Apply(one)
	if st := a.Status()[0]; !st.Draining || s1.State() != core.SlotDispatched {
		t.Fatalf("lowering cancelled work or hid the drain: %+v", st)
	}
	s1.Complete()
	got := make(chan *Slot)
	go func() { s, _ := a.Admit(context.Background(), Request{Model: "a"}); got <- s }()
	waitQueued(t, a, "p", 1)
	s2.Complete()
	s3 := <-got
	// Raising the limit in a saved file changes nothing until applied.
	go func() { s, _ := a.Admit(context.Background(), Request{Model: "a"}); got <- s }()
	waitQueued(t, a, "p", 1)
	_ = two // saved, not applied
	time.Sleep(5 * time.Millisecond)
	if st := a.Status()[0]; st.Queued != 1 {
		t.Fatalf("raised limit took effect without apply: %+v", st)
	}
	a.Apply(two)
	s4 := <-got
	s3.CancelBeforeDispatch()
	s4.CancelBeforeDispatch()
}

func TestAliasesShareOneCapacity(t *testing.T) {
	a := New(parse(t, "[agent]\nmodel = \"coder\"\n"+model("coder", "flash", "p", 1)+model("coder-long", "flash", "p", 1)+poolTOML("p", 4, 1, 8)))
	s := admit(t, a, Request{Model: "coder"})
	if _, err := a.Admit(context.Background(), Request{Model: "coder-long", MaxWait: time.Millisecond}); core.CodeOf(err) != core.CodeCapacityWaitTimeout {
		t.Fatalf("alias multiplied capacity: %v", err)
	}
	s.CancelBeforeDispatch()
	admit(t, a, Request{Model: "coder-long"}).CancelBeforeDispatch()
}

func TestAdoptedUncertainRequestOccupiesCapacity(t *testing.T) {
	a := New(parse(t, "[agent]\nmodel = \"a\"\n"+model("a", "ca", "p", 1)+poolTOML("p", 1, 1, 8)))
	s, err := a.AdoptUncertain("a", Foreground)
	if err != nil || s.State() != core.SlotUncertain {
		t.Fatal(err)
	}
	if _, err := a.Admit(context.Background(), Request{Model: "a", MaxWait: time.Millisecond}); core.CodeOf(err) != core.CodeCapacityWaitTimeout {
		t.Fatalf("recovered uncertain request did not occupy its slot: %v", err)
	}
	if err := s.Dispatched(); err == nil {
		t.Fatal("an uncertain request was dispatched again")
	}
	s.Reconcile()
	admit(t, a, Request{Model: "a"}).CancelBeforeDispatch()
	if _, err := a.AdoptUncertain("gone", Foreground); core.CodeOf(err) != core.CodeInvalidConfiguration {
		t.Errorf("unknown model: %v", err)
	}
}

// TestStressCancellationsTimeoutsAndUncertainty mixes admissions,
// cancellations, timeouts, full queues, shadow requests and uncertain
// slots from many goroutines; afterwards nothing leaks and every failure
// is one of the typed outcomes.
func TestStressCancellationsTimeoutsAndUncertainty(t *testing.T) {
	cfg := parse(t, "[agent]\nmodel = \"coder\"\n"+model("coder", "flash", "srv", 2)+
		"[models.laya]\nprovider = \"laya_systemone\"\nendpoint = \"http://127.0.0.1:1/l\"\npool = \"srv\"\nmax_in_flight = 2\n"+
		poolTOML("srv", 3, 1, 4))
	a := New(cfg)
	var uncertain []*Slot
	var mu sync.Mutex
	var wg sync.WaitGroup
	for g := 0; g < 64; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 30; i++ {
				ctx, cancel := context.WithCancel(context.Background())
				if (g+i)%5 == 0 {
					go cancel()
				}
				req := Request{Model: "coder", MaxWait: time.Duration(1+(g+i)%3) * time.Millisecond}
				if (g+i)%4 == 0 {
					req = Request{Model: "laya", Class: Shadow}
				}
				s, err := a.Admit(ctx, req)
				cancel()
				if err != nil {
					switch core.CodeOf(err) {
					case core.CodeCapacityExhausted, core.CodeCapacityWaitTimeout, core.CodeCancelled:
					default:
						t.Errorf("unexpected %v", err)
					}
					continue
				}
				switch (g + i) % 7 {
				case 0:
					s.CancelBeforeDispatch()
				case 1:
					s.Dispatched()
					s.Uncertain()
					mu.Lock()
					uncertain = append(uncertain, s)
					mu.Unlock()
				default:
					s.Dispatched()
					s.Complete()
				}
				if i%3 == 0 {
					mu.Lock()
					if n := len(uncertain); n > 0 {
						uncertain[n-1].Reconcile()
						uncertain = uncertain[:n-1]
					}
					mu.Unlock()
				}
			}
		}(g)
	}
	wg.Wait()
	for _, s := range uncertain {
		if err := s.Reconcile(); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range a.Status() {
		if p.Occupied != 0 || p.Queued != 0 || p.ShadowOccupied != 0 {
			t.Errorf("leak after stress: %+v", p)
		}
		for _, c := range p.Capacities {
			if c.Occupied != 0 {
				t.Errorf("capacity leak: %+v", c)
			}
		}
	}
}
