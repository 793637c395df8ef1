package observe

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/josecorral/fluzo/lib/core"
)

func TestStepOfNamesActorsAndKeepsUnknownTypesVisible(t *testing.T) {
	ev := func(typ, data string) core.Event {
		return core.Event{Type: typ, TS: time.Unix(0, 0), Data: json.RawMessage(data)}
	}
	cases := []struct {
		ev             core.Event
		actor, outcome string
	}{
		{ev(core.EvOperationDecision, `{"tool":"x","decision":"deny","rule":"r","to":"denied"}`), "policy", "denied"},
		{ev(core.EvOperationUnknown, `{"tool":"x","to":"unknown","reason":"restart"}`), "tool", "unknown restart"},
		{ev(core.EvProviderResponse, `{"model":"m","to":"completed","input_tokens":null,"output_tokens":5}`), "provider", "completed tokens in unknown out 5"},
		{ev(core.EvObservation, `{"kind":"k"}`), "laya", "observation only"},
		{ev("something.new", `{}`), "runtime", ""},
	}
	for _, c := range cases {
		st := EntryOf(c.ev)
		if st.Actor != c.actor || st.Outcome != c.outcome || st.Event != c.ev.Type {
			t.Errorf("%s: actor %q outcome %q", c.ev.Type, st.Actor, st.Outcome)
		}
	}
}

func TestAllowListedDropsContent(t *testing.T) {
	got := string(allowListed(json.RawMessage(`{"point":"p","snapshot":"SECRET","answers":{"a":1}}`)))
	if got != `{"answers":{"a":1},"point":"p"}` {
		t.Fatalf("allowListed = %s", got)
	}
	if string(allowListed(json.RawMessage(`not json`))) != `{}` {
		t.Fatal("invalid data not reduced to {}")
	}
}
