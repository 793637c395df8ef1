package proc

import (
	"os"
	"strconv"
	"sync"
	"testing"
	"time"
)

// no_new_privs is per thread: every child must carry the mark whichever
// thread its goroutine forked from.
func TestEveryMarkedChildRunsWithNoNewPrivs(t *testing.T) {
	MarkToolTree()
	defer markChildren.Store(false)
	var wg sync.WaitGroup
	unmarked := make(chan int, 64)
	for i := 0; i < 32; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p, err := Start(Spec{Argv: []string{"/bin/sleep", "30"}, Env: []string{"PATH=/usr/bin:/bin"}, Timeout: 30 * time.Second, Grace: 100 * time.Millisecond})
			if err != nil {
				t.Error(err)
				return
			}
			if !noNewPrivs(strconv.Itoa(p.PID())) {
				unmarked <- p.PID()
			}
			p.Kill()
			p.Wait()
		}()
	}
	wg.Wait()
	close(unmarked)
	for pid := range unmarked {
		t.Errorf("child %d runs without no_new_privs", pid)
	}
}

// Leftover daemons are signalled at one instant: one whose "sleep" died
// first must not get to run its next command. Fifty of them make the
// window wide enough to matter if they were signalled one by one.
func TestLeftoversAreSignalledTogether(t *testing.T) {
	// Each job in a session of its own, so no group-wide kill reaches
	// them all in one kernel call; adopted by this process (a subreaper).
	if err := EnableSubreaper(); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	script := `for i in $(seq 50); do setsid sh -c "sleep 300; echo late >f$i" & done; sleep 0.5; exit 0`
	p, err := Start(Spec{Argv: []string{"/bin/sh", "-c", script}, Dir: dir, Env: []string{"PATH=/usr/bin:/bin"}, Timeout: time.Minute, Grace: 2 * time.Second, AdoptOrphans: true})
	if err != nil {
		t.Fatal(err)
	}
	o := p.Wait()
	if len(o.Ended) == 0 || len(o.Unconfirmed) != 0 {
		t.Fatalf("ended %d, unconfirmed %+v", len(o.Ended), o.Unconfirmed)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Fatalf("%d leftover jobs ran their next command after being stopped", len(ents))
	}
}

// With nothing adopted, End looks at the process table once: a look reads
// every process's stat on the machine, and a run's end makes three End
// calls (the tool server's, the owner's for the task, its own at close).
func TestEndWithNoStraysLooksOnce(t *testing.T) {
	looks := 0
	defer func(read func() map[int]procInfo) { readProcs = read }(readProcs)
	read := readProcs
	readProcs = func() map[int]procInfo { looks++; return read() }
	ended, alive := Strays{}.End(time.Second)
	if len(ended) != 0 || len(alive) != 0 {
		t.Fatalf("ended %v, alive %v: this test process adopted nothing", ended, alive)
	}
	if looks != 1 {
		t.Errorf("%d looks at the process table, want 1", looks)
	}
}
