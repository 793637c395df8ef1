package agent

import "testing"

func TestVerifyFromRequest(t *testing.T) {
	cases := map[string]string{
		"make `cargo test` pass":                        "cargo test",
		"run `go test ./...` and fix the failure":       "go test ./...",
		"see `src/lib.rs`, then make `pytest -q` green": "pytest -q",
		"fix the bug in `word_count`":                   "",
		"cargo test fails":                              "",
		"`cargo testify` is not cargo test":             "",
	}
	for req, want := range cases {
		if got := VerifyFromRequest(req); got != want {
			t.Errorf("%q: got %q want %q", req, got, want)
		}
	}
}
