package agent

// finalizationPrompt is the one text-only request the agent gets when it
// reaches its turn limit: it must summarize instead of acting.
const finalizationPrompt = `You have reached the turn limit for this task. Do not call tools.
Reply with a short summary in three parts: what is done, what remains, and the
evidence (commands run and their results) for both.`

// stepLimit decides, turn by turn, whether the loop may send a normal
// request, must send the single text-only finalization request, or must
// stop.
type stepLimit struct {
	MaxTurns  int
	turns     int
	finalized bool
}

// Step kinds returned by stepLimit.Next.
const (
	stepNormal   = "normal"
	stepFinalize = "finalize"
	stepStop     = "stop"
)

// next is called before each model request and counts it.
func (s *stepLimit) next() string {
	switch {
	case s.MaxTurns <= 0 || s.turns < s.MaxTurns:
		s.turns++
		return stepNormal
	case !s.finalized:
		s.finalized = true
		return stepFinalize
	default:
		return stepStop
	}
}

// nextIsNormal reports whether next would allow a normal request, without
// counting one.
func (s *stepLimit) nextIsNormal() bool { return s.MaxTurns <= 0 || s.turns < s.MaxTurns }

// Turns returns how many normal requests were counted.
func (s *stepLimit) Turns() int { return s.turns }

// resume carries turns consumed by earlier attempts forward, so a resumed
// task does not get a fresh allowance.
func (s *stepLimit) resume(consumed int) { s.turns = consumed }
