package admit

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/josecorral/fluzo/lib/config"
	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/policy"
	"github.com/urfave/cli/v3"
)

func checkCommand() *cli.Command {
	return &cli.Command{
		Name:  "check",
		Usage: "evaluate operations (JSONL on stdin) against policy, grants and YOLO",
		Description: `Reads one operation per line on standard input and writes one decision per
line: {"v":1,"type":"decision","re":ID,"decision":"allow|deny|ask","reason":...,"rule":...}.
An operation that does not match the schema is answered with an error record
and the next line is read. Without a .fluzo (and without --config) the
built-in default policy applies. Nothing is executed.`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "grants", Usage: "read task grants from `FILE`, one spec per line (prefix \"once \" for one-time grants, # comments)"},
			&cli.StringSliceFlag{Name: "allow", Usage: "add a task grant `SPEC` such as \"exec:cargo test\" (repeatable)"},
			&cli.StringSliceFlag{Name: "deny", Usage: "add an explicit deny `SPEC`; it beats every grant and YOLO (repeatable)"},
			&cli.BoolFlag{Name: "yolo", Usage: "answer allow where approval would be asked (attributed to YOLO); denials still hold"},
		},
		Action: runCheck,
	}
}

// opLine is one input line: the operation plus its request id.
type opLine struct {
	V  int    `json:"v"`
	ID string `json:"id"`
	policy.Operation
}

type decisionRecord struct {
	V    int    `json:"v"`
	Type string `json:"type"`
	Re   string `json:"re"`
	policy.Decision
}

func runCheck(_ context.Context, c *cli.Command) error {
	p, err := checkPolicy(c)
	if err != nil {
		return err
	}
	grants, err := checkGrants(c)
	if err != nil {
		return err
	}
	out := bufio.NewWriter(c.Root().Writer)
	defer out.Flush()
	enc := json.NewEncoder(out)
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(make([]byte, 64*1024), 4<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		var in opLine
		if err := core.DecodeStrict([]byte(line), &in); err != nil {
			enc.Encode(core.NewErrorRecord(in.ID, atLine(err, n)))
			continue
		}
		if in.V != core.WireVersion {
			enc.Encode(core.NewErrorRecord(in.ID, atLine(core.Errorf(core.CodeInvalidRequest, "unsupported record version %d", in.V).
				WithHint(`send "v":1`), n)))
			continue
		}
		d := p.Evaluate(in.Operation, grants, c.Bool("yolo"))
		enc.Encode(decisionRecord{V: core.WireVersion, Type: "decision", Re: in.ID, Decision: d})
	}
	if err := sc.Err(); err != nil {
		return core.Wrap(err, core.CodeInvalidRequest, "cannot read operations from standard input").
			WithHint("send one JSON object per line, each under 4 MiB")
	}
	return nil
}

// atLine says which input line a malformed operation came from, since a
// line that cannot be decoded has no id to answer with.
func atLine(err error, n int) error {
	e := core.AsError(err)
	e.Message = fmt.Sprintf("standard input line %d: %s", n, e.Message)
	return e.With("line", n)
}

// checkPolicy builds the policy from the selected configuration, or the
// built-in defaults when the workspace has no .fluzo and none was named.
func checkPolicy(c *cli.Command) (policy.Policy, error) {
	cfg, err := openConfig(c)
	if core.CodeOf(err) == core.CodeConfigurationRequired && c.String("config") == "" {
		cfg = config.Defaults()
		for _, ov := range c.StringSlice("set") {
			k, v, _ := strings.Cut(ov, "=")
			if err = cfg.Override(strings.TrimSpace(k), strings.TrimSpace(v)); err != nil {
				return policy.Policy{}, err
			}
		}
		err = cfg.Validate()
	}
	if err != nil {
		return policy.Policy{}, err
	}
	p, err := policy.FromConfig(cfg)
	if err != nil {
		return p, err
	}
	for _, text := range c.StringSlice("deny") {
		s, err := policy.ParseSpec(text)
		if err != nil {
			return p, err
		}
		p.Denies = append(p.Denies, s)
	}
	return p, nil
}

func checkGrants(c *cli.Command) ([]policy.Grant, error) {
	var grants []policy.Grant
	// Ids name where a grant came from, so decisions are reproducible.
	add := func(id, text string, scope core.GrantScope) error {
		s, err := policy.ParseSpec(text)
		if err != nil {
			return err
		}
		grants = append(grants, policy.Grant{ID: id, Scope: scope, Spec: s, Source: "cli"})
		return nil
	}
	for i, text := range c.StringSlice("allow") {
		if err := add(fmt.Sprintf("allow[%d]", i), text, core.GrantTask); err != nil {
			return nil, err
		}
	}
	if path := c.String("grants"); path != "" {
		data, err := os.ReadFile(path)
		if err != nil {
			return nil, core.Wrap(err, core.CodeUsage, "cannot read the grants file "+path).WithHint("check the --grants path")
		}
		for n, line := range strings.Split(string(data), "\n") {
			line = strings.TrimSpace(line)
			if line == "" || strings.HasPrefix(line, "#") {
				continue
			}
			scope := core.GrantTask
			if rest, ok := strings.CutPrefix(line, "once "); ok {
				scope, line = core.GrantOnce, rest
			} else if rest, ok := strings.CutPrefix(line, "task "); ok {
				line = rest
			}
			if err := add(fmt.Sprintf("%s:%d", path, n+1), line, scope); err != nil {
				return nil, err
			}
		}
	}
	return grants, nil
}
