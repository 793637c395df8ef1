package tools

import (
	"context"
	"time"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/tools/proc"
)

// track registers a running process. One that starts while the server is
// shutting down (its request arrived before EOF) is stopped at once, with
// the same SIGTERM, grace, SIGKILL sequence as the others.
func (s *Server) track(id string, p *proc.Process) {
	s.mu.Lock()
	s.running[id] = p
	stopping := s.stopping
	early := s.early[id]
	delete(s.early, id)
	s.mu.Unlock()
	switch early.kind {
	case "cancel":
		p.Terminate()
		go s.reportSurvivors(early.controlID, id, p)
	case "kill":
		p.Kill()
	}
	if stopping {
		p.Terminate()
		go func() {
			time.Sleep(s.opts.Grace)
			if s.process(id) == p && len(p.Members()) > 0 {
				p.Kill()
			}
		}()
	}
}

// supervise makes p reachable by cancel and kill controls under id,
// terminates it gracefully when ctx ends (caller cancelled, server
// stopping) and waits for its outcome.
func (s *Server) supervise(ctx context.Context, id string, p *proc.Process) proc.Outcome {
	s.track(id, p)
	defer s.untrack(id)
	done := make(chan struct{})
	defer close(done)
	go func() {
		select {
		case <-ctx.Done():
			p.Terminate()
		case <-done:
		}
	}()
	return p.Wait()
}

func (s *Server) untrack(id string) {
	s.mu.Lock()
	delete(s.running, id)
	s.mu.Unlock()
}

func (s *Server) process(id string) *proc.Process {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.running[id]
}

// earlyControl is a cancel or kill that arrived before its request's
// process started.
type earlyControl struct{ kind, controlID string }

// target finds the process of request id. A request that is in flight but
// has not started its process yet (or never will) records the control so
// that a process it starts later is stopped at once.
func (s *Server) target(id string, ctl earlyControl) (*proc.Process, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if p := s.running[id]; p != nil {
		return p, true
	}
	if s.active[id] {
		if s.early[id].kind != "kill" {
			s.early[id] = ctl
		}
		return nil, true
	}
	return nil, false
}

// control answers cancel and kill. Cancel sends SIGTERM to the request's
// group and, if members remain after the grace period, reports them in a
// "stopping" record so the caller can decide to kill. Kill sends SIGKILL to
// the group and its descendants, and only to processes this server owns.
func (s *Server) control(in Incoming) Reply {
	switch in.Control {
	case "cancel":
		p, ok := s.target(in.Target, earlyControl{"cancel", in.ID})
		if !ok {
			return errReply(in.ID, notRunning(in.Target))
		}
		if p != nil {
			p.Terminate()
			go s.reportSurvivors(in.ID, in.Target, p)
		}
		return Reply{V: core.WireVersion, Type: TypeAck, Re: in.ID, Target: in.Target}
	case "kill":
		if in.PID != 0 {
			return s.killPID(in)
		}
		p, ok := s.target(in.Target, earlyControl{"kill", in.ID})
		if !ok {
			return errReply(in.ID, notRunning(in.Target))
		}
		if p != nil {
			p.Kill()
		}
		return Reply{V: core.WireVersion, Type: TypeAck, Re: in.ID, Target: in.Target}
	}
	return errReply(in.ID, core.Errorf(core.CodeInvalidRequest, "unknown control %q", in.Control).
		WithHint(`use "cancel" or "kill" with "target": the request id`))
}

func (s *Server) killPID(in Incoming) Reply {
	if in.PID <= 1 {
		return errReply(in.ID, notOwned(in.PID))
	}
	owner, target := s.ownerOf(in.PID)
	if owner == nil {
		return errReply(in.ID, notOwned(in.PID))
	}
	owner.Kill()
	return Reply{V: core.WireVersion, Type: TypeAck, Re: in.ID, Target: target}
}

func (s *Server) reportSurvivors(controlID, target string, p *proc.Process) {
	time.Sleep(s.opts.Grace)
	if s.process(target) != p {
		return
	}
	if survivors := p.Members(); len(survivors) > 0 {
		s.write(Reply{V: core.WireVersion, Type: TypeStopping, Re: controlID, Target: target, Survivors: survivors})
	}
}

func notRunning(target string) error {
	return core.Errorf(CodeNotRunning, "no process of request %q is running", target).
		WithHint("target the id of a running exec or shell request")
}

func notOwned(pid int) error {
	return core.Errorf(CodeNotOwned, "process %d does not belong to a process group this fluzo-tool started", pid).
		WithHint("only processes started by this server can be killed through it")
}

// startWait bounds how long a pid kill waits for processes that are still
// being started: a child can run (and report its pid) before the server
// has recorded it, and refusing that kill would be a spurious not_owned.
const startWait = 2 * time.Second

// ownerOf returns the running request whose process group owns pid. While
// some request is starting its process, it waits (bounded) for the
// registration before concluding that pid is not owned.
func (s *Server) ownerOf(pid int) (*proc.Process, string) {
	deadline := time.Now().Add(startWait)
	for {
		s.mu.Lock()
		for id, p := range s.running {
			if p.Owns(pid) {
				s.mu.Unlock()
				return p, id
			}
		}
		starting := false
		for id := range s.active {
			if s.running[id] == nil {
				starting = true
				break
			}
		}
		s.mu.Unlock()
		if !starting || time.Now().After(deadline) {
			return nil, ""
		}
		time.Sleep(5 * time.Millisecond)
	}
}
