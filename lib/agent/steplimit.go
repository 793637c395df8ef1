package agent

// FinalizationPrompt is the one text-only request the agent gets when it
// reaches its turn limit: it must summarize instead of acting.
const FinalizationPrompt = `You have reached the turn limit for this task. Do not call tools.
Reply with a short summary in three parts: what is done, what remains, and the
evidence (commands run and their results) for both.`

// StepLimit decides, turn by turn, whether the loop may send a normal
// request, must send the single text-only finalization request, or must
// stop.
type StepLimit struct {
	MaxTurns  int
	turns     int
	finalized bool
}

// Step kinds returned by StepLimit.Next.
const (
	StepNormal   = "normal"
	StepFinalize = "finalize"
	StepStop     = "stop"
)

// Next is called before each model request and counts it.
func (s *StepLimit) Next() string {
	switch {
	case s.MaxTurns <= 0 || s.turns < s.MaxTurns:
		s.turns++
		return StepNormal
	case !s.finalized:
		s.finalized = true
		return StepFinalize
	default:
		return StepStop
	}
}

// Turns returns how many normal requests were counted.
func (s *StepLimit) Turns() int { return s.turns }

// Resume carries turns consumed by earlier attempts forward, so a resumed
// task does not get a fresh allowance.
func (s *StepLimit) Resume(consumed int) { s.turns = consumed }
