package core

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestDescribeJSONErrorNamesFieldAndTypeNotGoTypes(t *testing.T) {
	type args struct {
		Path  string            `json:"path"`
		Count int               `json:"count"`
		On    bool              `json:"on"`
		Argv  []string          `json:"argv"`
		Env   map[string]string `json:"env"`
	}
	cases := []struct{ in, want string }{
		{`{"path":5}`, "path: expected a string, found a JSON number"},
		{`{"count":"x"}`, "count: expected a whole number, found a JSON string"},
		{`{"on":"yes"}`, "on: expected true or false, found a JSON string"},
		{`{"argv":"ls"}`, "argv: expected an array of strings, found a JSON string"},
		{`{"env":{"A":1}}`, "env: expected a string, found a JSON number"},
		{`[]`, "expected an object, found a JSON array"},
		{`{"path":`, "the JSON ends early"},
	}
	for _, tc := range cases {
		var a args
		err := json.Unmarshal([]byte(tc.in), &a)
		if err == nil {
			t.Fatalf("%s decoded", tc.in)
		}
		got := DescribeJSONError(err)
		if got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.in, got, tc.want)
		}
		if strings.Contains(got, "Go struct") || strings.Contains(got, "unmarshal") {
			t.Errorf("%s: decoder text leaked: %q", tc.in, got)
		}
	}
}

func TestDecodeCommandRefusesMissingRequiredField(t *testing.T) {
	var a struct {
		Command
		On bool `json:"on"`
	}
	for _, in := range []string{`{"v":1,"id":"1","cmd":"set_yolo"}`, `{"v":1,"id":"1","cmd":"set_yolo","on":null}`} {
		err := DecodeCommand([]byte(in), &a, "on")
		if CodeOf(err) != CodeInvalidRequest || !strings.Contains(err.Error(), `set_yolo needs the field "on"`) {
			t.Errorf("%s: got %v", in, err)
		}
	}
	if err := DecodeCommand([]byte(`{"v":1,"id":"1","cmd":"set_yolo","on":false}`), &a, "on"); err != nil || a.On {
		t.Errorf("explicit false: got %v, on=%v", err, a.On)
	}
}
