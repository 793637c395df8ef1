package form

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Entry is one setting as the settings query describes it. Value and
// Default are command-line text (as --set takes them): strings bare,
// lists and tables in TOML syntax.
type Entry struct {
	Key, Type, Unit, Source, Privacy, Apply, Description, Valid string
	Value, Default, Saved                                       string
	Line                                                        int // in .fluzo, when Source is file
	Min, Max                                                    *float64
	Options                                                     []string
	Locked, Edited, PendingRestart, DevMenu, TaskBudget         bool
}

// Value types of entries (lib/config's Kind names, as the port sends them).
const (
	TypeBool      = "bool"
	TypeInt       = "int"
	TypeFloat     = "float"
	TypeString    = "string"
	TypeEnum      = "enum"
	TypeStrings   = "string_list"
	TypeStringMap = "string_map"
)

// Control is how an entry is edited.
type Control uint8

const (
	ControlText     Control = iota // validated text
	ControlToggle                  // bool
	ControlStepper                 // bounded int or float
	ControlSelector                // one of the options
)

// Control says which control edits e.
func (e Entry) Control() Control {
	switch {
	case e.Type == TypeBool:
		return ControlToggle
	case (e.Type == TypeInt || e.Type == TypeFloat) && e.Min != nil && e.Max != nil:
		return ControlStepper
	case len(e.Options) > 0:
		return ControlSelector
	}
	return ControlText
}

// Reference reports whether the value names where a secret lives (an
// environment variable, an auth.toml entry): it is shown as a reference,
// never resolved.
func (e Entry) Reference() bool { return e.Privacy == "secret_reference" }

// RestartOnly reports whether a change needs a new runtime process.
func (e Entry) RestartOnly() bool { return e.Apply == "restart" }

// When describes when a change of e applies, for the entry's detail line.
func (e Entry) When() string {
	switch e.Apply {
	case "live":
		return "applies at once"
	case "future":
		return "applies to tasks started afterwards"
	case "safe_boundary":
		return "applies at the next safe boundary"
	case "restart":
		return "applies after a restart"
	}
	return "applies: unknown"
}

// Validate checks text as a value of e without changing anything. The
// returned problem names the key and the valid values; "" means valid.
// Out-of-range values are refused, never clamped.
func Validate(e Entry, text string) string {
	if e.Locked {
		return e.Key + " is set on the command line (--set): locked for this session"
	}
	bad := func(format string, args ...any) string {
		return e.Key + ": " + fmt.Sprintf(format, args...) + " (valid: " + e.Valid + ")"
	}
	switch e.Type {
	case TypeBool:
		if text != "true" && text != "false" {
			return bad("%q is not true or false", text)
		}
	case TypeInt:
		n, err := strconv.ParseInt(strings.ReplaceAll(text, "_", ""), 10, 64)
		if err != nil {
			return bad("%q is not an integer", text)
		}
		return rangeProblem(e, float64(n), text, bad)
	case TypeFloat:
		f, err := strconv.ParseFloat(text, 64)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
			return bad("%q is not a number", text)
		}
		return rangeProblem(e, f, text, bad)
	case TypeEnum:
		for _, o := range e.Options {
			if o == text {
				return ""
			}
		}
		return bad("%q is not one of the options", text)
	case TypeStrings:
		if !strings.HasPrefix(strings.TrimSpace(text), "[") || !strings.HasSuffix(strings.TrimSpace(text), "]") {
			return bad("%q is not a TOML array such as [\"a\", \"b\"]", text)
		}
	case TypeStringMap:
		if !strings.HasPrefix(strings.TrimSpace(text), "{") || !strings.HasSuffix(strings.TrimSpace(text), "}") {
			return bad("%q is not a TOML inline table such as { A = \"1\" }", text)
		}
	}
	return ""
}

func rangeProblem(e Entry, v float64, text string, bad func(string, ...any) string) string {
	switch {
	case e.Min != nil && v < *e.Min:
		return bad("%s is below the minimum %s", text, number(e, *e.Min))
	case e.Max != nil && v > *e.Max:
		return bad("%s is above the maximum %s", text, number(e, *e.Max))
	}
	return ""
}

// number formats a bound as e's type writes it.
func number(e Entry, f float64) string {
	if e.Type == TypeInt {
		return strconv.FormatInt(int64(f), 10)
	}
	return strconv.FormatFloat(f, 'f', -1, 64)
}

// step is the stepper increment: 1 for integers; for numbers a hundredth
// of a narrow range (ratios), 1 otherwise.
func step(e Entry) float64 {
	if e.Type == TypeFloat && e.Min != nil && e.Max != nil && *e.Max-*e.Min <= 1 {
		return 0.05
	}
	return 1
}
