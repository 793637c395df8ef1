package cards

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/josecorral/fluzo/lib/tui/text"
	"github.com/josecorral/fluzo/lib/tui/theme"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// variants every fixture is rendered in, all in one golden per fixture.
var variants = []struct {
	name string
	opts Options
}{
	{"collapsed 60", Options{Width: 60}},
	{"expanded 60", Options{Width: 60, Expanded: true}},
	{"ascii collapsed 40", Options{Width: 40, ASCII: true}},
}

func TestGoldens(t *testing.T) {
	for _, f := range fixtures {
		t.Run(f.name, func(t *testing.T) {
			var b strings.Builder
			for _, v := range variants {
				rows := Render(f.op, v.opts)
				checkRows(t, rows, v.opts.Width)
				b.WriteString("== " + v.name + "\n")
				b.WriteString(text.Dump(rows))
			}
			compareGolden(t, filepath.Join("testdata", f.name+".txt"), b.String())
		})
	}
}

func compareGolden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs (run with -update after checking):\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}

// checkRows: every row fits and holds nothing a terminal would act on.
func checkRows(t *testing.T, rows []text.Line, width int) {
	t.Helper()
	for i, l := range rows {
		if w := text.LineWidth(l); w > width {
			t.Errorf("row %d is %d cells wide, limit %d: %q", i, w, width, l)
		}
		for _, sp := range l {
			if r := unsafeRune(sp.Text); r >= 0 {
				t.Errorf("row %d holds %U raw: %q", i, r, sp.Text)
			}
		}
	}
}

func unsafeRune(s string) rune {
	for _, r := range s {
		switch {
		case r < 0x20, r >= 0x7f && r < 0xa0,
			r == 0x61c, r == 0x200e, r == 0x200f, r >= 0x202a && r <= 0x202e,
			r >= 0x2066 && r <= 0x2069, r == 0x2028, r == 0x2029:
			return r
		}
	}
	return -1
}

func rowsText(rows []text.Line) string { return text.DumpText(rows) }

func fixture(name string) Op {
	for _, f := range fixtures {
		if f.name == name {
			return f.op
		}
	}
	panic("no fixture " + name)
}

func TestCollapseAndExpand(t *testing.T) {
	op := fixture("view-ok") // 14 lines of content
	collapsed := Render(op, Options{Width: 60})
	if len(collapsed) != 1+CollapsedRows+1 {
		t.Fatalf("collapsed card has %d rows:\n%s", len(collapsed), rowsText(collapsed))
	}
	last := collapsed[len(collapsed)-1]
	if got := rowsText(collapsed[len(collapsed)-1:]); got != "  … 4 more lines · Space to expand\n" || last[0].Token != theme.Muted {
		t.Errorf("marker row = %q in %s", got, last[0].Token)
	}
	expanded := Render(op, Options{Width: 60, Expanded: true})
	if len(expanded) != 1+14 || strings.Contains(rowsText(expanded), "more lines") {
		t.Errorf("expanded card:\n%s", rowsText(expanded))
	}
	if ascii := rowsText(Render(op, Options{Width: 60, ASCII: true})); !strings.Contains(ascii, "  ... 4 more lines - Space to expand") || !strings.HasPrefix(ascii, "[v] view") {
		t.Errorf("ascii card:\n%s", ascii)
	}
}

// Failures and truncation are notices after the body: a collapsed card
// shows them as an expanded one does.
func TestFailuresAndTruncationSurviveCollapse(t *testing.T) {
	cases := map[string][]string{
		"exec-failed":     {"exit 101", "failure: cargo test: regression FAILED"},
		"exec-truncated":  {"stdout truncated: 588895 bytes written"},
		"exec-timeout":    {"timed out after 120s", "could not be confirmed stopped"},
		"view-truncated":  {"truncated: lines 1-3 of 5000 shown; more from offset 4"},
		"glob-truncated":  {"results truncated: more than 12 matches"},
		"edit-failed":     {"old_string_not_found: old_string does not occur", "hint: view the file again"},
		"exec-denied":     {"denied by policy (rule deny:exec:rm): removing files"},
		"exec-unknown":    {"outcome was recorded"},
		"journal-standin": {"result too large to keep inline (900000 bytes); full result in artifact art_01"},
	}
	for name, wants := range cases {
		got := strings.ReplaceAll(rowsText(Render(fixture(name), Options{Width: 200})), "\n", " ")
		for _, w := range wants {
			if !strings.Contains(got, w) {
				t.Errorf("%s collapsed does not show %q:\n%s", name, w, got)
			}
		}
	}
}

func TestExpandedOutputIsBoundedHeadAndTail(t *testing.T) {
	// 142 output lines, the fluzo marker line wrapping to two rows at 58.
	op := fixture("exec-truncated")
	rows := Render(op, Options{Width: 60, Expanded: true})
	all := rowsText(rows)
	if !strings.Contains(all, "  … 23 lines omitted …\n") {
		t.Fatalf("no omitted marker:\n%s", all)
	}
	if !strings.Contains(all, "  1 ") || !strings.Contains(all, "99070") {
		t.Errorf("head or tail missing")
	}
	body := 0
	for _, r := range rows {
		if len(r) > 0 && r[0].Token == theme.Panel {
			body++
		}
	}
	if body != 2*ExpandedEdge {
		t.Errorf("expanded body has %d rows, want %d", body, 2*ExpandedEdge)
	}
}

func TestStateIconsAndWords(t *testing.T) {
	cases := []struct {
		fixture, icon, ascii string
		tok                  theme.Token
		word                 string
	}{
		{"view-running", "● ", "[.] ", theme.Muted, "running"},
		{"edit-waiting", "● ", "[.] ", theme.Warning, "waiting for approval"},
		{"view-ok", "✓ ", "[v] ", theme.Success, ""},
		{"exec-failed", "× ", "[x] ", theme.Error, "exit 101"},
		{"exec-denied", "× ", "[x] ", theme.Error, "denied"},
		{"grep-failed", "× ", "[x] ", theme.Error, "failed"},
		{"exec-unknown", "? ", "[?] ", theme.Warning, "outcome unknown"},
	}
	for _, c := range cases {
		title := Render(fixture(c.fixture), Options{Width: 100})[0]
		if title[0].Text != c.icon || title[0].Token != c.tok || !strings.Contains(rowsText([]text.Line{title}), c.word) {
			t.Errorf("%s title = %q (%s)", c.fixture, rowsText([]text.Line{title}), title[0].Token)
		}
		if a := Render(fixture(c.fixture), Options{Width: 100, ASCII: true})[0]; a[0].Text != c.ascii {
			t.Errorf("%s ascii icon = %q", c.fixture, a[0].Text)
		}
	}
}

func TestDiffPreviewTokens(t *testing.T) {
	rows := Render(fixture("edit-ok"), Options{Width: 60})
	var minus, plus int
	for _, r := range rows[1:] {
		for _, sp := range r {
			switch {
			case strings.HasPrefix(sp.Text, "-") && sp.Token == theme.Error:
				minus++
			case strings.HasPrefix(sp.Text, "+") && sp.Token == theme.Success:
				plus++
			}
		}
	}
	if minus != 2 || plus != 3 {
		t.Errorf("diff preview: %d removed, %d added rows, want 2 and 3:\n%s", minus, plus, text.Dump(rows))
	}
}

// Control and bidi characters in paths, argv, cwd and output are shown
// escaped, never passed to the terminal; argv items stay distinguishable.
func TestHostileTextShownEscaped(t *testing.T) {
	for _, name := range []string{"hostile", "hostile-path"} {
		for _, v := range variants {
			rows := Render(fixture(name), v.opts)
			checkRows(t, rows, v.opts.Width)
		}
	}
	all := strings.ReplaceAll(rowsText(Render(fixture("hostile"), Options{Width: 400, Expanded: true})), "\n", "¶")
	for _, want := range []string{
		`evil\u202etxt.exe`, `a\x0ab`, `\x1b]52;c;ZXZpbA==\x07`, `in dir\x1b[31m`,
		`safe\x0dEVIL`, `\x1b]8;;https://evil.example\x1b\click`, `\x1b[1A\x1b[2K✓ approved`, `\u2066isolate\u2069 and \u200fmark`,
	} {
		if !strings.Contains(all, want) {
			t.Errorf("expected %q shown escaped in:\n%s", want, all)
		}
	}
	if title := rowsText(Render(fixture("hostile-tool-name"), Options{Width: 200})[:1]); !strings.HasPrefix(title, `✓ x\x1b[2J\u202e {"k":"v\u001b[31m"}`) {
		t.Errorf("hostile tool name title = %q", title)
	}
	path := rowsText(Render(fixture("hostile-path"), Options{Width: 200})[:1])
	if !strings.Contains(path, `src/\u202egpj.rs\x1b[0m`) {
		t.Errorf("path title = %q", path)
	}
}

func TestEnvironmentNamesNotValues(t *testing.T) {
	all := rowsText(Render(fixture("exec-timeout"), Options{Width: 100}))
	if !strings.Contains(all, "env A_TOKEN, RUST_LOG") || strings.Contains(all, "secret-value") {
		t.Errorf("env row:\n%s", all)
	}
}

func TestUndecodableDataGetsAGenericCard(t *testing.T) {
	for name, want := range map[string]string{
		"undecodable-args":   `cannot show this operation: cannot decode view arguments: field "path" should be string, not a JSON number`,
		"undecodable-result": `cannot show this operation: cannot decode exec result: field "exit_code" should be int, not a JSON string`,
	} {
		got := strings.ReplaceAll(rowsText(Render(fixture(name), Options{Width: 200})), "\n", " ")
		if !strings.Contains(got, want) {
			t.Errorf("%s:\n%s\nwant %q", name, got, want)
		}
	}
	// Garbage of every kind never panics and always yields a titled card.
	for _, raw := range []string{``, `null`, `[]`, `"x"`, `{`, `{"ok":true,"result":[1,2]}`, `{"ok":"yes"}`, "\xff"} {
		for _, tool := range []string{"view", "ls", "glob", "grep", "edit", "write", "exec", "shell", "git_diff", "other"} {
			rows := Render(Op{Tool: tool, State: "succeeded", Args: []byte(raw), Result: []byte(raw)}, Options{Width: 50})
			if len(rows) == 0 {
				t.Fatalf("%s with %q: no rows", tool, raw)
			}
			checkRows(t, rows, 50)
		}
	}
}

func TestNarrowWidths(t *testing.T) {
	for _, f := range fixtures {
		for w := 1; w <= 30; w++ {
			for _, ascii := range []bool{false, true} {
				rows := Render(f.op, Options{Width: w, ASCII: ascii, Expanded: w%2 == 0})
				for i, r := range rows {
					if lw := text.LineWidth(r); lw > w && w >= 4 {
						t.Fatalf("%s at width %d: row %d is %d wide: %q", f.name, w, i, lw, r)
					}
				}
			}
		}
	}
}

func TestExpandedShowsACutSubjectWhole(t *testing.T) {
	op := Op{Tool: "exec", State: "dispatched", Args: js(map[string]any{"argv": []string{"cargo", "test", "--package", "a-very-long-package-name", "--", "--exact", "the_test_name"}})}
	collapsed := rowsText(Render(op, Options{Width: 40}))
	if strings.Contains(collapsed, "the_test_name") {
		t.Fatalf("fixture does not cut the title:\n%s", collapsed)
	}
	expanded := strings.ReplaceAll(rowsText(Render(op, Options{Width: 40, Expanded: true})), "\n  ", "")
	if !strings.Contains(expanded, "cargo test --package a-very-long-package-name -- --exact the_test_name") {
		t.Errorf("expanded card does not show the whole argv:\n%s", expanded)
	}
}

func TestCollapseBoundary(t *testing.T) {
	view := func(n int) Op {
		return Op{Tool: "view", State: "succeeded", Args: js(map[string]any{"path": "f"}),
			Result: okResult(map[string]any{"path": "f", "content": lines(n, "l%d"), "first_line": 1, "lines_shown": n, "total_lines": n})}
	}
	if got := rowsText(Render(view(10), Options{Width: 50})); strings.Contains(got, "more") || strings.Count(got, "\n") != 11 {
		t.Errorf("ten rows must show whole:\n%s", got)
	}
	if got := rowsText(Render(view(11), Options{Width: 50})); !strings.HasSuffix(got, "  … 1 more line · Space to expand\n") || strings.Count(got, "\n") != 12 {
		t.Errorf("eleven rows must collapse to ten and a marker:\n%s", got)
	}
}

// ASCII mode draws no non-ASCII glyph of its own: for fixtures whose data
// is ASCII, every cell is.
func TestASCIIModeIsASCII(t *testing.T) {
	checked := 0
	for _, f := range fixtures {
		data := string(f.op.Args) + string(f.op.Result) + f.op.Tool + f.op.Rule + f.op.Reason
		if f.op.Command != nil {
			data += f.op.Command.Failure + f.op.Command.OutputTail
		}
		if strings.Contains(data, `\u`) || strings.IndexFunc(data, func(r rune) bool { return r > 0x7e }) >= 0 {
			continue
		}
		checked++
		for _, expanded := range []bool{false, true} {
			all := rowsText(Render(f.op, Options{Width: 40, ASCII: true, Expanded: expanded}))
			if i := strings.IndexFunc(all, func(r rune) bool { return r > 0x7e }); i >= 0 {
				t.Errorf("%s: ASCII card holds %q:\n%s", f.name, []rune(all[i:])[0], all)
			}
		}
	}
	if checked < 15 {
		t.Fatalf("only %d ASCII fixtures checked", checked)
	}
}
