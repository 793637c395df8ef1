package observe

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/josecorral/fluzo/lib/core"
)

func TestCleanEscapesControlAndBidiCharacters(t *testing.T) {
	cases := map[string]string{
		"plain text":             "plain text",
		"red \x1b[31mX\x1b[0m":   `red \x1b[31mX\x1b[0m`,
		"bell\x07 tab\tnew\nend": `bell\x07 tab new end`,
		"evil \u202eeman":        `evil \u202eeman`,
		"\u2066iso\u2069":        `\u2066iso\u2069`,
		"\u009b31m":              `\u009b31m`,
		"raw \x9b byte":          `raw \x9b byte`,
		"safe\rEVIL":             `safe\x0dEVIL`,
	}
	for in, want := range cases {
		if got := clean(in, 100); got != want {
			t.Errorf("clean(%q) = %q, want %q", in, got, want)
		}
	}
	if got := clean("abcdef", 3); got != "abc…" {
		t.Errorf("bounded clean = %q", got)
	}
}

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
		st := stepOf(c.ev)
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
