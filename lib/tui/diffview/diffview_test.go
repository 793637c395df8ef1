package diffview

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/josecorral/fluzo/lib/tui/text"
	"github.com/josecorral/fluzo/lib/tui/theme"
)

// bigDiff answers windows of a 100 000-line diff without ever building
// it, as the port streams one: line i is "+line i" after a hunk header.
const bigLines = 100_000

func bigWindow(r Request) Window {
	w := Window{Path: r.Path, Offset: r.Offset, Total: bigLines + 1, Added: bigLines}
	for i := r.Offset; i < min(r.Offset+r.Limit, bigLines+1); i++ {
		if i == 0 {
			w.Lines = append(w.Lines, fmt.Sprintf("@@ -0,0 +1,%d @@", bigLines))
			continue
		}
		w.Lines = append(w.Lines, fmt.Sprintf("+line %d", i))
	}
	return w
}

func plain(l text.Line) string {
	var b strings.Builder
	for _, s := range l {
		b.WriteString(s.Text)
	}
	return b.String()
}

func TestPagerHoldsOneBoundedWindowOfA100kLineDiff(t *testing.T) {
	const rows = 40
	var p Pager
	req := p.Open("big.txt", rows) // plain: the highlighter has its own tests, this one counts lines
	if !p.Fill(bigWindow(req)) {
		t.Fatal("the first window was refused")
	}
	requests, maxHeld := 1, 0
	for steps := 0; p.Top() < bigLines+1-rows; steps++ {
		if steps > bigLines {
			t.Fatal("paging never reached the end")
		}
		if r := p.Scroll(rows, rows); r != nil {
			requests++
			if r.Limit > MaxWindow {
				t.Fatalf("asked for %d lines, more than the bound %d", r.Limit, MaxWindow)
			}
			p.Fill(bigWindow(*r))
		}
		maxHeld = max(maxHeld, p.Held())
		vis := p.Visible(rows)
		if got, want := plain(vis[0]), fmt.Sprintf("+line %d", p.Top()); got != want {
			t.Fatalf("top %d shows %q, want %q", p.Top(), got, want)
		}
	}
	if maxHeld > MaxWindow {
		t.Fatalf("the pager held %d lines of a %d-line diff; the bound is %d", maxHeld, bigLines, MaxWindow)
	}
	if requests > bigLines/(MinWindow-rows)+2 {
		t.Fatalf("%d window requests for one pass", requests)
	}
	// And back up with PgUp to the top.
	for p.Top() > 0 {
		if r := p.Scroll(-rows, rows); r != nil {
			p.Fill(bigWindow(*r))
		}
		if p.Held() > MaxWindow {
			t.Fatalf("held %d", p.Held())
		}
	}
	if got := plain(p.Visible(rows)[0]); !strings.HasPrefix(got, "@@ -0,0 +1,100000 @@") {
		t.Fatalf("back at the top: %q", got)
	}
}

func TestPagerDropsAnswersItDidNotAskFor(t *testing.T) {
	var p Pager
	req := p.Open("a.go", 10)
	if p.Fill(Window{Path: "b.go", Offset: 0}) || p.Fill(Window{Path: "a.go", Offset: 7}) {
		t.Fatal("a stale or foreign window was taken")
	}
	w := bigWindow(req)
	w.Lines = append(w.Lines, make([]string, 5000)...)
	p.Fill(w)
	if p.Held() > req.Limit {
		t.Fatalf("held %d lines past the limit asked (%d)", p.Held(), req.Limit)
	}
}

func TestRowsHighlightCodeAndSignTheChange(t *testing.T) {
	rows := Rows([]string{"@@ -1,2 +1,2 @@", " package a", "-func A() {}", "+func A() int { return 1 }", `\ No newline at end of file`}, "go")
	if len(rows) != 5 || rows[0][0].Token != theme.Accent || rows[2][0].Text != "-" || rows[2][0].Token != theme.Error ||
		rows[3][0].Text != "+" || rows[3][0].Token != theme.Success || rows[3][1].Token != theme.SynKeyword || rows[4][0].Token != theme.Subtle {
		t.Fatalf("rows %+v", rows)
	}
	if got := plain(Rows([]string{"+\x1b]52;c;evil\x07ok"}, "")[0]); strings.ContainsRune(got, 0x1b) {
		t.Fatalf("file text reached the screen unescaped: %q", got)
	}
}

const sampleAnswer = `{"task":"tsk_1","state":"cancelled","live":false,"diff":{"head_before":"abc","pre_existing":["notes.txt"],
 "changed":[{"path":"a.go","kind":"changed","added":3,"removed":1},{"path":"b.go","kind":"modified","pre_existing":true},
 {"path":"c.go","kind":"changed","uncertain":true,"reason":"not written by the task's file tools","added":1,"removed":0}]},
 "verification":{"completed":false,"verification":"stale","reason":"workspace_changed_after_verification","edits_since":2,
  "evidence":{"command":"go test ./...","exit_code":1,"output":"=== RUN TestA\n--- FAIL: TestA (0.00s)\n    a_test.go:9: got 1\nFAIL\nok  other"}}}`

func TestSummaryKeepsUserChangesApartAndMarksAttribution(t *testing.T) {
	s, err := ParseSummary(json.RawMessage(sampleAnswer))
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Changes) != 3 || len(s.User) != 1 || s.User[0].Path != "notes.txt" {
		t.Fatalf("changes %+v user %+v", s.Changes, s.User)
	}
	if a, r, known := s.Totals(); a != 4 || r != 1 || known {
		t.Fatalf("totals +%d −%d known=%v: b.go's count is unknown", a, r, known)
	}
	if s.Changes[1].Counts() != "+? −?" || !strings.HasPrefix(s.Changes[1].Attribution(), "mixed") || !strings.HasPrefix(s.Changes[2].Attribution(), "uncertain: not written") || s.Changes[0].Attribution() != "" {
		t.Fatalf("attribution %+v", s.Changes)
	}
	if !strings.HasPrefix(s.Partial(), "partial: the task was cancelled") {
		t.Fatalf("partial: %q", s.Partial())
	}
	v := s.Verification
	if v.When() != "stale: 2 edit(s) since" || v.ExitText() != "1" || v.Command != "go test ./..." {
		t.Fatalf("verification %+v", v)
	}
	if got := v.FailingTests(); len(got) != 1 || got[0] != "TestA" {
		t.Fatalf("failing tests %v", got)
	}
	var failures []string
	for _, l := range v.Output {
		if IsFailure(l) {
			failures = append(failures, strings.TrimSpace(l))
		}
	}
	if strings.Join(failures, "|") != "--- FAIL: TestA (0.00s)|FAIL" {
		t.Fatalf("failure lines %q", failures)
	}
}

func TestVerificationOutcomesAndUnknowns(t *testing.T) {
	for raw, want := range map[string]string{
		`{"completed":true,"verification":"passed","evidence":{"command":"make test","exit_code":0}}`:                            "after the last edit|0",
		`{"completed":false,"verification":"not_run","reason":"task_stopped"}`:                                                   "not run (task_stopped)|none: the command did not run",
		`{"completed":false,"verification":"stale","evidence":{"command":"x","exit_code":0}}`:                                    "stale: the workspace changed after it ran|0",
		`{"completed":false,"verification":"failed","evidence":{"command":"x","exit_code":null}}`:                                "after the last edit|unknown (the command was stopped)",
		`{"completed":false,"verification":"stale","reason":"workspace_state_unknown","evidence":{"command":"x","exit_code":0}}`: "unproven: the workspace state it ran against could not be read|0",
	} {
		v, err := ParseVerification(json.RawMessage(raw))
		if err != nil {
			t.Fatal(err)
		}
		if got := v.When() + "|" + v.ExitText(); got != want {
			t.Errorf("%s: %q, want %q", raw, got, want)
		}
	}
	s, err := ParseSummary(json.RawMessage(`{"task":"tsk_1","state":"running","live":true,"diff":{},"edits_since_verification":3,
		"verification":{"completed":false,"verification":"failed","evidence":{"command":"x","exit_code":1}}}`))
	if err != nil || s.Verification.When() != "stale: 3 edit(s) since" {
		t.Fatalf("edits recorded after a failed run make it stale: %+v %v", s.Verification, err)
	}
	if _, err := ParseVerification(json.RawMessage(`{"x":1}`)); err == nil || !strings.Contains(err.Error(), "could not be read") {
		t.Fatalf("a shapeless record: %v", err)
	}
}

func TestFailureLinesOfCommonRunners(t *testing.T) {
	for _, l := range []string{"--- FAIL: TestX (0.1s)", "FAIL\tgithub.com/x/y\t0.2s", "panic: boom", "test tests::it ... FAILED", "error[E0308]: mismatched types", "src/a.rs:3:5: error: nope", "not ok 2 - adds", "FAILED tests/t.py::test_a - assert"} {
		if !IsFailure(l) {
			t.Errorf("%q is a failure", l)
		}
	}
	for _, l := range []string{"ok  \tgithub.com/x/y", "=== RUN TestX", "test tests::it ... ok", "PASS", "no errors found"} {
		if IsFailure(l) {
			t.Errorf("%q is not a failure", l)
		}
	}
}
