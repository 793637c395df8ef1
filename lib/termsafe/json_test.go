package termsafe

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

func TestJSONKeepsTheValueAndEscapesWhatTerminalsInterpret(t *testing.T) {
	v := map[string]any{"summary": "Done \x1b]52;c;aGk=\x07 \u009b2J \u202eexe.txt\x7f", "files": []any{"evil\u202etxt.exe", "ok"}, "n": 1.5}
	raw, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	out := JSON(raw)
	assertInert(t, string(raw), string(out), "")
	var back map[string]any
	if err := json.Unmarshal(out, &back); err != nil {
		t.Fatalf("JSON output is not JSON: %v: %s", err, out)
	}
	if !reflect.DeepEqual(back, v) {
		t.Fatalf("JSON changed the value: %v, want %v", back, v)
	}
	if want := `"files":["evil\u202etxt.exe","ok"]`; !strings.Contains(string(out), want) {
		t.Errorf("JSON = %s, want it to hold %s", out, want)
	}
}

func TestJSONReturnsSafeInputUnchanged(t *testing.T) {
	raw := []byte(`{"a":"naïve \u001b ok","b":[1,2]}`)
	if out := JSON(raw); &out[0] != &raw[0] || string(out) != string(raw) {
		t.Errorf("JSON copied or changed safe input: %s", out)
	}
}
