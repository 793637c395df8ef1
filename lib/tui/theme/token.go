// Package theme maps the TUI's semantic roles (tokens) to terminal styles
// for each theme (default, high-contrast) and colour capability (truecolor,
// 256, 16, none, ASCII). Views name a token, never a colour, so one place
// decides what every role looks like and the 16-colour and NO_COLOR
// reductions apply everywhere.
package theme

// Token is a semantic style role. The set is closed: views and renderers
// pick one of these and the theme decides the colours and attributes.
type Token uint8

const (
	Base        Token = iota // ordinary text on the surface
	Accent                   // headings, borders, prompts, bullets
	Muted                    // secondary text, quotes, running-tool icon
	Success                  // passed, approved, diff additions
	Warning                  // waiting, inline code, cautions
	Error                    // failures, denials, diff deletions
	Subtle                   // footer descriptions, secondary model lines
	Separator                // rules, scrollbar track, inactive buttons
	Panel                    // tool bodies (panel background)
	ToolTitle                // tool card titles
	Highlight                // scrollbar thumb, selected button
	OnSelection              // text on a selected row or button

	// Syntax roles for highlighted code blocks.
	SynKeyword
	SynString
	SynComment
	SynNumber
	SynFunction
	SynType
	SynOperator

	tokenCount
)

// Count is the number of tokens, for tables indexed by Token.
const Count = int(tokenCount)

var tokenNames = [...]string{
	"base", "accent", "muted", "success", "warning", "error", "subtle",
	"separator", "panel", "tool-title", "highlight", "on-selection",
	"syn-keyword", "syn-string", "syn-comment", "syn-number",
	"syn-function", "syn-type", "syn-operator",
}

// String names the token as goldens and diagnostics show it.
func (t Token) String() string {
	if int(t) < len(tokenNames) {
		return tokenNames[t]
	}
	return "token?"
}
