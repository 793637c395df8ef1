package runner

import (
	"regexp"
	"strings"
)

// invalidValue matches the flag package's "invalid value" error so that the
// user sees the flag as typed and what a valid value looks like, never the
// parser's internals (strconv.ParseInt: …).
var invalidValue = regexp.MustCompile(`^invalid value "(.*)" for flag -+([^:\s]+): (.*)$`)

// expectations maps a parser's error to what the flag expects.
var expectations = []struct{ marker, want string }{
	{"ParseInt", "a whole number"},
	{"ParseUint", "a whole number of zero or more"},
	{"ParseFloat", "a number"},
	{"ParseBool", "true or false"},
	{"time: ", "a duration such as 30s, 5m or 1h"},
}

// friendlyFlagError rewrites a flag parsing error message; other messages
// are returned unchanged.
func friendlyFlagError(msg string) string {
	m := invalidValue.FindStringSubmatch(msg)
	if m == nil {
		return msg
	}
	value, name, detail := m[1], m[2], m[3]
	dashes := "--"
	if len(name) == 1 {
		dashes = "-"
	}
	for _, e := range expectations {
		if strings.Contains(detail, e.marker) {
			return "invalid value " + quote(value) + " for " + dashes + name + ": expected " + e.want
		}
	}
	return "invalid value " + quote(value) + " for " + dashes + name + ": " + detail
}

func quote(s string) string { return `"` + s + `"` }
