package sim

import "fmt"

// queue is one endpoint's ordered steps and how far they were consumed.
type queue struct {
	steps []*stepState
	pos   int
}

type stepState struct {
	step *Step
	used int
}

func (st *stepState) times() int { return max(st.step.Times, 1) }

func newQueues(sc *Scenario) map[string]*queue {
	qs := map[string]*queue{EndpointChat: {}, EndpointLaya: {}}
	for i := range sc.Steps {
		st := &sc.Steps[i]
		qs[st.Endpoint].steps = append(qs[st.Endpoint].steps, &stepState{step: st})
	}
	return qs
}

// take finds the step that answers o: the next unconsumed step, or a later
// one when every step before it is optional (those are skipped). It returns
// nil and the reason when the request is unexpected.
func (q *queue) take(o observed) (*Step, string, string) {
	for i := q.pos; i < len(q.steps); i++ {
		st := q.steps[i]
		if st.used >= st.times() {
			continue
		}
		why := st.step.Match.mismatch(o)
		if why == "" {
			st.used++
			q.pos = i
			return st.step, "", ""
		}
		if !st.step.Optional && st.used == 0 {
			return nil, st.step.ID, "expected " + why
		}
		if !st.step.Optional {
			// A repeatable required step already used at least once may
			// give way to the next step.
			continue
		}
	}
	return nil, "", fmt.Sprintf("no further step expects a request (%d steps)", len(q.steps))
}
