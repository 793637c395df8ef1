package sim

import "context"

// Gates let a test order events without sleeping: an answer with
// "hold":"NAME" waits before its headers until gate NAME is released
// (Release, or POST /_sim/release?gate=NAME), so a script can act while
// the client is known to be waiting. A gate released before the answer
// arrives lets it through at once.

// Release opens gate name for every answer held there, now and later.
func (s *Server) Release(name string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	g := s.gateLocked(name)
	select {
	case <-g:
	default:
		close(g)
	}
}

// passGate waits until gate name is released; false when the request
// ended first. An empty name is no gate.
func (s *Server) passGate(ctx context.Context, name string) bool {
	if name == "" {
		return true
	}
	s.mu.Lock()
	g := s.gateLocked(name)
	s.mu.Unlock()
	select {
	case <-g:
		return true
	case <-ctx.Done():
		return false
	}
}

func (s *Server) gateLocked(name string) chan struct{} {
	if s.gates == nil {
		s.gates = map[string]chan struct{}{}
	}
	g, ok := s.gates[name]
	if !ok {
		g = make(chan struct{})
		s.gates[name] = g
	}
	return g
}
