package gitx

import (
	"bufio"
	"strings"
	"testing"
)

func TestEachLineCutsLongLinesAndKeepsTheirHead(t *testing.T) {
	in := "short\n" + strings.Repeat("x", 40) + "y\nlast"
	var got []string
	var clipped []bool
	err := eachLine(bufio.NewReaderSize(strings.NewReader(in), 16), 16, func(l []byte, c bool) error {
		got, clipped = append(got, string(l)), append(clipped, c)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"short", strings.Repeat("x", 16), "last"}
	if strings.Join(got, "|") != strings.Join(want, "|") || clipped[0] || !clipped[1] || clipped[2] {
		t.Fatalf("lines %q clipped %v", got, clipped)
	}
}

func TestStreamReadsGitLineByLineAndStops(t *testing.T) {
	dir := t.TempDir()
	if _, err := Output(t.Context(), dir, nil, "init", "-q"); err != nil {
		t.Fatal(err)
	}
	n := 0
	exit, err := Stream(t.Context(), dir, nil, 256, func(l []byte, _ bool) error {
		n++
		return ErrStop
	}, "config", "--list", "--show-origin")
	if err != nil || exit != 0 || n != 1 {
		t.Fatalf("exit %d err %v lines %d", exit, err, n)
	}
	exit, err = Stream(t.Context(), dir, nil, 256, func([]byte, bool) error { return nil }, "rev-parse", "--verify", "-q", "HEAD")
	if err != nil || exit == 0 {
		t.Fatalf("an unborn HEAD is git's non-zero answer, not an error: exit %d err %v", exit, err)
	}
}
