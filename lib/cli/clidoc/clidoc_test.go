package clidoc

import (
	"strings"
	"testing"

	"github.com/urfave/cli/v3"
)

func sample() *cli.Command {
	return &cli.Command{
		Name:  "fluzo-x",
		Usage: "does x",
		Flags: []cli.Flag{&cli.StringFlag{Name: "config", Aliases: []string{"c"}, Usage: "read `FILE` first"}},
		Commands: []*cli.Command{
			{Name: "history", Usage: "stored sessions", Commands: []*cli.Command{
				{Name: "purge", Usage: "delete sessions", Flags: []cli.Flag{&cli.BoolFlag{Name: "yes", Usage: "really"}}},
			}},
			{Name: "secret", Hidden: true},
		},
	}
}

func TestManPage(t *testing.T) {
	out := Man(Page{Cmd: sample(), Version: "1.2.3", Sections: []Section{{Title: "Files", Body: ".fluzo is read\n\n  verbatim -x"}}})
	for _, want := range []string{
		".TH FLUZO-X 1", "fluzo\\-x \\- does x", `\fB\-\-config\fR, \fB\-c\fR \fIFILE\fR`, "read FILE first",
		`.SS "fluzo\-x history purge"`, ".SH FILES", "\\&.fluzo is read", ".nf", "verbatim \\-x", ".SH EXIT STATUS", "permission_required",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("man page lacks %q\n%s", want, out)
		}
	}
	if strings.Contains(out, "secret") || strings.Contains(out, "`") {
		t.Error("hidden command or placeholder backticks leaked into the man page")
	}
}

func TestCompletionScriptsKnowNestedCommands(t *testing.T) {
	bash := Completion{Root: sample()}.Bash()
	if !strings.Contains(bash, `"/history/purge") words="--yes --help"`) || !strings.Contains(bash, `"/history") words="purge --help"`) {
		t.Errorf("bash script misses nested words:\n%s", bash)
	}
	if z := (Completion{Root: sample()}).Zsh(); !strings.Contains(z, "#compdef fluzo-x") || strings.Contains(z, "local path") {
		t.Errorf("zsh script wrong:\n%s", z)
	}
	fish := Completion{Root: sample()}.Fish()
	if !strings.Contains(fish, "-a 'purge' -d 'delete sessions'") || !strings.Contains(fish, "-d 'read FILE first'") {
		t.Errorf("fish script misses entries:\n%s", fish)
	}
}

func TestNonASCIIBecomesRoffGlyphs(t *testing.T) {
	if got := esc("see §27 — a → b…"); got != `see \[sc]27 \[em] a \[->] b...` {
		t.Fatalf("esc = %q", got)
	}
}

func TestValueInferenceFromPlaceholders(t *testing.T) {
	c := Completion{Keys: []string{"a.b"}, Choices: map[string][]string{"TOOL": {"view"}}}
	for _, tc := range []struct {
		ph, flag string
		want     valueKind
	}{
		{"FILE", "config", valueFiles}, {"[FILE]", "", valueFiles}, {"DIR", "workspace", valueDirs},
		{"TASK", "", valueTasks}, {"ID", "task", valueTasks}, {"ID", "session", valueSessions},
		{"KEY=VALUE", "set", valueKeysEq}, {"KEY", "", valueKeys}, {"TOOL", "", valueWords},
		{"N", "max-turns", valueNone}, {"COMMAND", "verify", valueNone},
	} {
		if got := c.valueFor(tc.ph, tc.flag).kind; got != tc.want {
			t.Errorf("valueFor(%q, %q) = %d, want %d", tc.ph, tc.flag, got, tc.want)
		}
	}
}
