package core

import (
	"bytes"
	"encoding/json"
	"testing"
)

func TestMarshalVerbatimKeepsCodeCharacters(t *testing.T) {
	code := "if i < n && ok { x := a > b }"
	got, err := MarshalVerbatim(map[string]any{"content": code, "raw": json.RawMessage(`{"s":"a<b"}`)})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"content":"if i < n && ok { x := a > b }","raw":{"s":"a<b"}}`
	if string(got) != want {
		t.Fatalf("MarshalVerbatim = %s, want %s", got, want)
	}
	var buf bytes.Buffer
	if err := NewVerbatimEncoder(&buf).Encode(code); err != nil {
		t.Fatal(err)
	}
	if buf.String() != `"if i < n && ok { x := a > b }"`+"\n" {
		t.Fatalf("NewVerbatimEncoder wrote %q", buf.String())
	}
}
