package config

import (
	"strings"
	"testing"
)

// The developer menu's keys are registered, and none of them reaches
// policy, grants, budgets, pools, models or the harness.
func TestDevMenuKeysAreRegisteredAndConferNoPrivilege(t *testing.T) {
	for _, k := range DevMenuKeys() {
		s, ok := Lookup(k)
		if !ok {
			t.Errorf("%s is not a registered setting", k)
			continue
		}
		for _, banned := range []string{"policy.", "harness.", "models.", "capacity_pools.", "tools.", "mcp.", "telemetry.", "storage."} {
			if strings.HasPrefix(k, banned) {
				t.Errorf("%s (%s) must not be in the developer menu", k, s.Privacy)
			}
		}
		if s.Privacy == PrivacySecurity && k != "decision.enabled" {
			t.Errorf("%s is a security setting; only decision.enabled (consent-checked) is allowed", k)
		}
	}
	if InDevMenu("policy.shell") || InDevMenu("capacity_pools.local_server.max_in_flight") || !InDevMenu("tui.theme") {
		t.Error("InDevMenu disagrees with DevMenuKeys")
	}
}
