package agent

import (
	"strings"
	"testing"
)

func TestReadCommandsSkipsOverLongLinesAndKeepsReading(t *testing.T) {
	const limit = 8
	in := strings.Join([]string{"12345678", "123456789", "", "ok\r", strings.Repeat("x", 100), "last"}, "\n")
	out := make(chan commandLine)
	go readCommands(strings.NewReader(in), limit, out)
	var got []string
	for l := range out {
		if l.tooLong {
			got = append(got, "TOO_LONG")
			continue
		}
		got = append(got, string(l.data))
	}
	want := "12345678|TOO_LONG|ok|TOO_LONG|last"
	if strings.Join(got, "|") != want {
		t.Fatalf("lines %q, want %s", got, want)
	}
}
