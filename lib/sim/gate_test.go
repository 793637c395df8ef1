package sim

import (
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestHeldAnswerWaitsForItsGate(t *testing.T) {
	s, _ := start(t, `{"version":1,"name":"g","models":["m"],"steps":[
 {"id":"held","match":{"messages":1},"respond":{"hold":"go","text":"released"}}]}`)
	got := make(chan string, 1)
	go func() {
		resp, err := http.Post(s.BaseURL()+"/chat/completions", "application/json",
			strings.NewReader(`{"model":"m","messages":[{"role":"user","content":"hi"}]}`))
		if err != nil {
			got <- err.Error()
			return
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		got <- string(b)
	}()
	for s.Verify().Requests < 1 {
		time.Sleep(time.Millisecond)
	}
	select {
	case b := <-got:
		t.Fatalf("the answer was not held: %s", b)
	case <-time.After(100 * time.Millisecond):
	}
	resp, err := http.Post(s.URL()+"/_sim/release?gate=go", "", nil)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("release: %v %v", err, resp)
	}
	resp.Body.Close()
	select {
	case b := <-got:
		if !strings.Contains(b, `"content":"released"`) {
			t.Fatalf("held answer = %s", b)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the released answer never came")
	}
	// A released gate stays open.
	s.Release("go")
}
