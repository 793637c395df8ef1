package tui

import (
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"
)

// The diagnostics view ends with the workspace's consent: granted with
// when, how, the fingerprint and each destination; not granted when it
// was revoked or never recorded; unknown from a runtime that does not
// report it.
func TestDiagnosticsShowTheConsentState(t *testing.T) {
	granted := diagAnswer("tsk_1", "failed", 4, 1, 1200, 300, unpriced)
	cases := []struct{ name, answer, want string }{
		{"granted", granted, "state        granted 2026-12-01T09:30:00Z (yes)"},
		{"destination", granted, "model coder http://127.0.0.1:8080/v1 (loopback)"},
		{"revoked", withConsent(granted, `{"state":"revoked","revoked_at":"2026-12-01T10:00:00Z"}`), "state        not granted (revoked 2026-12-01T10:00:00Z)"},
		{"none", withConsent(granted, `{"state":"none_recorded"}`), "state        not granted (no consent event recorded)"},
		{"unknown", withConsent(granted, `null`), "Consent"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t, 120, 40, Options{FPS: 0})
			running(h)
			h.keys(key(tcell.KeyCtrlD))
			h.ack(c.answer)
			h.keys(key(tcell.KeyPgDn), key(tcell.KeyPgDn), key(tcell.KeyPgDn))
			h.mustShow(c.want)
			if c.name == "unknown" {
				h.mustShow("state        unknown")
			}
		})
	}
}

// withConsent replaces the consent object of a diagnose answer.
func withConsent(answer, consent string) string {
	i := strings.Index(answer, `"consent":{`)
	return answer[:i] + `"consent":` + consent + "}}"
}
