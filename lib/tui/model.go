package tui

import (
	"encoding/json"
	"time"

	"github.com/josecorral/fluzo/lib/port"
	"github.com/josecorral/fluzo/lib/tui/cards"
	"github.com/josecorral/fluzo/lib/tui/markdown"
)

// phase is the task-level state the whole screen is designed around
// (PRD §29.1): every phase has its own layout of status text and hints.
type phase uint8

const (
	phaseLoading phase = iota
	phaseEmpty
	phaseRunning
	phaseWaiting
	phaseStopping
	phaseBlocked
	phaseCancelled
	phaseFailed
	phaseInterrupted
	phaseCompleted
	phaseBusy
	phaseLost
)

var phaseNames = [...]string{"loading", "ready", "running", "waiting for approval", "stopping",
	"blocked", "cancelled", "failed", "interrupted", "completed", "workspace busy", "disconnected"}

func (p phase) String() string { return phaseNames[p] }

// moving says whether the activity bar animates in this phase.
func (p phase) moving() bool { return p == phaseRunning || p == phaseWaiting || p == phaseStopping }

type itemKind uint8

const (
	itemUser itemKind = iota
	itemAssistant
	itemTool
	itemApproval
	itemIntervention
	itemNotice
	itemResult
)

// item is one conversation entry. Text fields hold sanitized text, except
// an assistant item's text: that is the model's raw Markdown, which
// markdown.Render escapes once after parsing (escaping it before would show
// every escape twice, and goldmark decodes character references into
// controls, so only the rendered output can be trusted).
type item struct {
	kind  itemKind
	gen   int // bumped on every change; the render cache keys on it
	text  string
	final bool

	tool     *toolInfo
	approval *approval
	interv   *intervention
	result   *port.Result
	notice   notice

	md     markdown.Renderer // assistant text; reuses unchanged blocks while streaming
	blocks []markdown.CodeBlock

	cache renderCache
}

type notice struct {
	title, body, hint string
	severity          string // info, warning, error
}

// toolInfo is a tool call: its card (lib/tui/cards) is rebuilt from the
// operation's events; expanded is the person's choice, kept across them.
type toolInfo struct {
	op       cards.Op
	expanded bool
}

type approvalState uint8

const (
	approvalPending approvalState = iota
	approvalApproved
	approvalApprovedTask
	approvalDenied
	approvalStale
)

// approval is one permission request. operation is the exact value
// answered; everything shown is an escaped copy.
type approval struct {
	operation string
	tool      string
	action    string // argv or path, escaped
	cwd       string
	envNames  []string
	rule      string
	state     approvalState
	shownAt   time.Duration // when the card appeared (arming window)
	sent      bool
}

type intervention struct {
	id      string // msg_… once acked
	reqID   string
	task    string // the task it was queued for
	text    string
	state   string // sending, queued, delivered, withdrawing, withdrawn
	editing bool
	// An edit or withdrawal in flight: its request, and the edit's text,
	// which replaces text only once the runtime accepted it.
	changeReq, pendingText string
	change                 string // edit or withdraw, while changeReq is in flight
}

type renderCache struct {
	width, gen int
	lines      []line
}

func (it *item) touch() { it.gen++ }

// taskInfo is what the screen knows about the current task.
type taskInfo struct {
	id, session, attempt string
	request              string
	state, reason        string
	startedAt            time.Duration
}

// sessionInfo feeds the sidebar and header: unknown stays unknown.
type sessionInfo struct {
	root    string
	model   string
	session string
	context string // "unknown" until the runtime reports a window
	cost    string
	files   []port.DiffChange
	pre     []string
}

func decodeData(raw json.RawMessage, v any) bool {
	return len(raw) > 0 && json.Unmarshal(raw, v) == nil
}
