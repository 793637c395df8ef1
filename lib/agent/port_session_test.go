package agent

import (
	"strings"
	"testing"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/store"
)

func TestPortSessionsAreCreatedReadAndChecked(t *testing.T) {
	var seeded string
	ans, events := portRecordsSeeded(t, func(st *store.Store) []string {
		s := core.Session{Title: "seeded"}
		if err := st.Write(t.Context(), func(tx *store.Tx) error { _, err := tx.CreateSession(&s); return err }); err != nil {
			t.Fatal(err)
		}
		seeded = s.ID
		return []string{
			`{"v":1,"id":"n","cmd":"new_session"}`,
			`{"v":1,"id":"q","cmd":"session","session":"` + seeded + `"}`,
			`{"v":1,"id":"q2","cmd":"session","session":"ses_NONE"}`,
			`{"v":1,"id":"q3","cmd":"session"}`,
			`{"v":1,"id":"st","cmd":"start_task","request":"x","session":"ses_NONE","no_verify":true}`,
			`{"v":1,"id":"n2","cmd":"new_session","bogus":1}`,
		}
	})
	id, _ := ans["n"]["data"].(map[string]any)["session"].(string)
	if !strings.HasPrefix(id, "ses_") || id == seeded {
		t.Fatalf("new_session answered %v", ans["n"])
	}
	// The first event streamed is the audit of the consent that admitted
	// the owner (see consent.AuditAdmitted).
	if len(events) == 2 && events[0].Type == core.EvConsentGranted {
		events = events[1:]
	}
	if len(events) != 1 || events[0].Type != core.EvSessionCreated || events[0].Session != id {
		t.Fatalf("new_session must commit and emit session.created: %+v", events)
	}
	got := ans["q"]["data"].(map[string]any)
	if got["session"].(map[string]any)["id"] != seeded || len(got["tasks"].([]any)) != 0 {
		t.Fatalf("session query: %v", got)
	}
	for re, want := range map[string]string{"q2": "not_found", "q3": "invalid_request", "st": "not_found", "n2": "invalid_request"} {
		if c := errCode(ans[re]); c != want {
			t.Errorf("%s: code %q, want %q (%v)", re, c, want, ans[re])
		}
	}
}
