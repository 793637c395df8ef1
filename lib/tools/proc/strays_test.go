package proc

import (
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
