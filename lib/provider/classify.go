package provider

import (
	"encoding/json"
	"net/http"
	"strings"
)

// capacityWords mark a rejection that is about capacity or quota, not a
// passing fault; such rejections are never retried whatever their status.
var capacityWords = []string{
	"insufficient_quota", "quota", "capacity", "overloaded", "too many requests",
	"rate limit", "rate_limit", "server is busy", "no slot", "no available slot",
}

// classifyStatus maps a non-2xx, non-3xx HTTP status and its (bounded)
// body to a class.
func classifyStatus(status int, body []byte) Class {
	switch {
	case fromSimulator(body):
		// The simulator quotes the tool result it could not match, and
		// code often says "capacity" or "quota": its words are not the
		// server's state.
		return ClassInvalidRequest
	case status == http.StatusTooManyRequests:
		return ClassRateLimited
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		return ClassAuthentication
	case status == http.StatusPaymentRequired:
		return ClassCapacityRejected
	case mentionsCapacity(body):
		return ClassCapacityRejected
	case status == http.StatusRequestTimeout || status >= 500:
		return ClassTransient
	default:
		return ClassInvalidRequest
	}
}

func mentionsCapacity(body []byte) bool {
	low := strings.ToLower(string(body))
	for _, w := range capacityWords {
		if strings.Contains(low, w) {
			return true
		}
	}
	return false
}

// simulatorHint replaces the generic invalid-request hint when fluzo-sim
// refused a request: the model name is fine, the scenario did not expect
// what the agent sent.
const simulatorHint = "the simulator's scenario has no step matching this request; compare the step's match (tool, arguments, content patterns) with the tool result quoted above, or run fluzo-sim check on the scenario"

// fromSimulator reports whether an error body is fluzo-sim's refusal of
// a request its scenario did not expect ({"error":{"type":"fluzo_sim_unexpected"}}; its scripted failures are
// ordinary server errors).
func fromSimulator(body []byte) bool {
	var v struct {
		Error struct {
			Type string `json:"type"`
		} `json:"error"`
	}
	return json.Unmarshal(body, &v) == nil && v.Error.Type == "fluzo_sim_unexpected"
}

// maxServerMessage bounds a server's error message: long enough for the
// simulator's expected-versus-observed explanation with the tool result it
// quotes.
const maxServerMessage = 600

// serverMessage extracts a short, printable message from an error body
// ({"error":{"message":…}} or {"error":"…"} or {"message":…}), bounded so
// that a hostile server cannot flood logs.
func serverMessage(body []byte) string {
	var v struct {
		Error   json.RawMessage `json:"error"`
		Message string          `json:"message"`
	}
	msg := ""
	if json.Unmarshal(body, &v) == nil {
		var inner struct {
			Message string `json:"message"`
		}
		var s string
		switch {
		case json.Unmarshal(v.Error, &inner) == nil && inner.Message != "":
			msg = inner.Message
		case json.Unmarshal(v.Error, &s) == nil:
			msg = s
		default:
			msg = v.Message
		}
	}
	return clip(printable(msg), maxServerMessage)
}

// printable drops control characters from server-provided text.
func printable(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
			return ' '
		}
		return r
	}, s)
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8Start(s[n]) {
		n--
	}
	return s[:n] + "…"
}

func utf8Start(b byte) bool { return b&0xC0 != 0x80 }
