package provider_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/josecorral/fluzo/lib/provider"
	"github.com/josecorral/fluzo/lib/sim"
)

// startSim serves a scenario given as JSON for one test.
func startSim(t *testing.T, scenario string) *sim.Server {
	t.Helper()
	sc, err := sim.Parse(t.Name(), []byte(scenario))
	if err != nil {
		t.Fatal(err)
	}
	s, err := sim.Start(context.Background(), sc)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// oneStep is a scenario with one chat step answering with respond.
func oneStep(respond string) string {
	return fmt.Sprintf(`{"version":1,"models":["m"],"steps":[{"id":"only","match":{"model":"m"},"respond":%s}]}`, respond)
}

// sleeps records injected backoff waits instead of sleeping.
type sleeps struct {
	mu    sync.Mutex
	waits []time.Duration
}

func (s *sleeps) sleep(_ context.Context, d time.Duration) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.waits = append(s.waits, d)
	return nil
}

func client(t *testing.T, base string, mod func(*provider.Endpoint)) *provider.Client {
	t.Helper()
	ep := provider.Endpoint{BaseURL: base, APIKey: "sk-secret-key", Sleep: (&sleeps{}).sleep}
	if mod != nil {
		mod(&ep)
	}
	c, err := provider.New(ep)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func chatReq(stream bool) provider.Request {
	return provider.Request{Model: "m", Stream: stream, Messages: []provider.Message{
		{Role: provider.RoleSystem, Content: "be brief"}, {Role: provider.RoleUser, Content: "run the tests"}}}
}

func mustVerify(t *testing.T, s *sim.Server) sim.Verdict {
	t.Helper()
	v := s.Verify()
	if !v.OK {
		t.Fatalf("simulator verdict failed: %v", v.Problems)
	}
	return v
}
