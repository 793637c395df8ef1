package admit

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/josecorral/fluzo/lib/cli/runner"
	"github.com/josecorral/fluzo/lib/consent"
	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/store"
	"github.com/josecorral/fluzo/lib/termsafe"
	"github.com/urfave/cli/v3"
)

func consentCommand() *cli.Command {
	return &cli.Command{
		Name:  "consent",
		Usage: "review, record or revoke consent for the workspace configuration's destinations",
		Description: `A configuration sends the workspace's code and conversation to its model
endpoint (and, when enabled, to Laya and an OTLP collector), lets standing
grants run commands and passes environment to them. fluzo-agent run, resume
and serve refuse to start (configuration_required, exit 3) before contacting
anything until the user has consented to exactly this configuration: consent
is scoped to the workspace (its resolved root, device and inode) and to the
configuration fingerprint (the hash of every destination, credential
reference, policy, grant, injected environment and content-export setting),
so a harmless change (budgets, theme) keeps it and a changed destination or
grant asks again. Loopback endpoints need consent too, once per fingerprint.

Consent is stored privately under ${XDG_STATE_HOME:-~/.local/state}/fluzo/consent/,
never in the workspace: a cloned repository's .fluzo or a copied .fluzodrive/
carries no consent.

Every grant and revoke is also an audit event in the workspace's store
(consent.granted: fingerprint, redacted destinations, when and how;
consent.revoked), written at once when the store exists. A consent given
before there is a store (a fresh clone, or the first run's --consent) is
written by the agent that it admits, when it creates the store; the consent
file stays the only thing that authorizes.

A destination that is plain HTTP to a host that is not loopback needs, on top,
the explicit warned exception --allow-http URL, naming that destination as
"show" lists it; nothing else (not --yes, not fluzo-agent --consent) accepts it.`,
		Commands: []*cli.Command{
			{Name: "show", Usage: "print the redacted review of the configuration and whether consent is recorded (read-only)",
				Flags:  []cli.Flag{&cli.BoolFlag{Name: "json", Usage: "print one JSON line ({\"v\":1,\"type\":\"consent_status\",...})"}},
				Action: consentShow},
			{Name: "grant", Usage: "show the review and record consent after asking (or with --yes)",
				Description: `Prints the redacted review, then asks "Record consent? [y/N]" and reads one
line from standard input: only y or yes records it; anything else, or end of
input, records nothing and exits 10 (confirmation_required). --yes records it
without asking, for scripts.`,
				Flags: []cli.Flag{
					&cli.BoolFlag{Name: "yes", Usage: "record consent without asking"},
					&cli.StringSliceFlag{Name: "allow-http", Usage: "accept plain HTTP to the non-loopback destination `URL` (warned; repeatable)"},
				},
				Action: consentGrant},
			{Name: "revoke", Usage: "remove every consent recorded for this workspace", Action: consentRevoke},
		},
	}
}

// consentScope resolves the workspace identity the runtime uses and the
// selected configuration.
func consentScope(ctx context.Context, c *cli.Command) (consent.Scope, error) {
	ws, err := store.ResolveWorkspace(ctx, c.String("workspace"))
	if err != nil {
		return consent.Scope{}, err
	}
	cfg, err := openConfig(c)
	if err != nil {
		return consent.Scope{}, err
	}
	return consent.Scope{Workspace: ws, Config: cfg, ConfigFile: c.String("config"), Overrides: c.StringSlice("set")}, nil
}

type consentStatus struct {
	V         int             `json:"v"`
	Type      string          `json:"type"`
	Workspace string          `json:"workspace"`
	Consented bool            `json:"consented"`
	Record    *consent.Record `json:"record,omitempty"`
	Summary   consent.Summary `json:"summary"`
	Others    int             `json:"other_fingerprints"`
	Command   string          `json:"grant_command,omitempty"`
}

func consentShow(ctx context.Context, c *cli.Command) error {
	sc, err := consentScope(ctx, c)
	if err != nil {
		return err
	}
	st := consent.Store{Dir: consent.DefaultDir()}
	sum := consent.Summarize(sc.Config)
	out := consentStatus{V: core.WireVersion, Type: "consent_status", Workspace: sc.Workspace.Root, Summary: sum}
	if rec, err := st.Check(sc); err == nil {
		out.Consented, out.Record = true, &rec
	} else if core.CodeOf(err) != core.CodeConfigurationRequired {
		return err
	} else {
		out.Command = sc.GrantCommand(sum)
	}
	all, err := st.List(sc.Workspace)
	if err != nil {
		return err
	}
	out.Others = len(all)
	if out.Consented {
		out.Others--
	}
	w := c.Root().Writer
	if c.Bool("json") {
		data, _ := json.Marshal(out)
		w.Write(append(termsafe.JSON(data), '\n'))
		return nil
	}
	printReview(w, sc.Workspace.Root, sum)
	if out.Consented {
		fmt.Fprintf(w, "consent:      recorded %s (%s)\n", out.Record.GrantedAt, out.Record.How)
	} else {
		fmt.Fprintf(w, "consent:      not recorded; run: %s\n", termsafe.Line(out.Command))
	}
	if out.Others > 0 {
		fmt.Fprintf(w, "              (%d consent(s) for other configurations of this workspace; 'consent revoke' removes all)\n", out.Others)
	}
	return nil
}

func consentGrant(ctx context.Context, c *cli.Command) error {
	sc, err := consentScope(ctx, c)
	if err != nil {
		return err
	}
	sum := consent.Summarize(sc.Config)
	w, ew := c.Root().Writer, c.Root().ErrWriter
	printReview(w, sc.Workspace.Root, sum)
	for _, d := range sum.Cleartext() {
		fmt.Fprintf(ew, "WARNING: %s (%s) is plain HTTP to a host that is not loopback: the workspace's code, the conversation and any credential travel in cleartext and can be read or changed on the way.\n",
			termsafe.Line(d.URL), termsafe.Line(d.Purpose))
	}
	how := consent.HowYes
	if !c.Bool("yes") {
		how = consent.HowPrompt
		if !confirmed(c.Root().Reader, ew) {
			return core.Errorf(core.CodeConfirmationRequired, "consent was not recorded").
				WithHint("answer y to record it, or pass --yes in scripts")
		}
	}
	rec, err := consent.Store{Dir: consent.DefaultDir()}.Grant(sc, how, c.StringSlice("allow-http"))
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "consent recorded for %s (%s)\n", termsafe.Line(sc.Workspace.Root), rec.Fingerprint)
	audited, err := consent.AuditGrant(ctx, sc.Workspace, rec)
	if err != nil {
		return err
	}
	auditLine(w, audited, core.EvConsentGranted, "the first task records it when it creates the store")
	return nil
}

// auditLine says where the grant or revoke's audit event went.
func auditLine(w io.Writer, audited bool, typ, otherwise string) {
	if audited {
		fmt.Fprintf(w, "audit: %s recorded in the workspace store\n", typ)
	} else {
		fmt.Fprintf(w, "audit: no workspace store yet; %s\n", otherwise)
	}
}

// confirmed asks once and reads one line: only y or yes agrees, so end
// of input (a script without --yes) never records consent.
func confirmed(r io.Reader, ew io.Writer) bool {
	fmt.Fprint(ew, "Record consent for this workspace and configuration? [y/N] ")
	line, _ := bufio.NewReader(r).ReadString('\n')
	answer := strings.ToLower(strings.TrimSpace(line))
	return answer == "y" || answer == "yes"
}

func consentRevoke(ctx context.Context, c *cli.Command) error {
	if c.Args().Len() > 0 {
		return runner.Usage(c, "revoke takes no arguments")
	}
	ws, err := store.ResolveWorkspace(ctx, c.String("workspace"))
	if err != nil {
		return err
	}
	n, err := consent.Store{Dir: consent.DefaultDir()}.Revoke(ws)
	if err != nil {
		return err
	}
	fmt.Fprintf(c.Root().Writer, "revoked %d consent record(s) for %s\n", n, termsafe.Line(ws.Root))
	audited, err := consent.AuditRevoke(ctx, ws, n)
	if err != nil {
		return err
	}
	auditLine(c.Root().Writer, audited, core.EvConsentRevoked, "nothing ran here under the consent it removed")
	return nil
}

// printReview is the redacted summary a user reads before consenting:
// destinations without credentials or query, references by name only.
func printReview(w io.Writer, root string, s consent.Summary) {
	fmt.Fprintf(w, "workspace:    %s\n", termsafe.Line(root))
	fmt.Fprintf(w, "fingerprint:  %s\n", s.Fingerprint)
	fmt.Fprintln(w, "destinations:")
	for _, d := range s.Destinations {
		auth := ""
		if d.Auth != "" {
			auth = ", auth " + d.Auth
		}
		fmt.Fprintf(w, "  %-12s %s (%s%s) [%s]\n", termsafe.Line(d.Purpose), termsafe.Line(d.URL), d.Class, termsafe.Line(auth), d.Key)
	}
	fmt.Fprintf(w, "grants:       %s\n", termsafe.Line(listOrNone(s.Grants)))
	fmt.Fprintf(w, "tool env:     inherit %s; set %s\n", termsafe.Line(listOrNone(s.InheritEnv)), termsafe.Line(listOrNone(s.EnvNames)))
	if len(s.ToolBackend) > 0 {
		argv, _ := json.Marshal(s.ToolBackend)
		fmt.Fprintf(w, "tool backend: %s (tools.backend: files and commands run there)\n", termsafe.Line(string(argv)))
	}
	export := "off"
	if s.CaptureContent {
		export = "ON: prompts, outputs and tool content go to telemetry"
	}
	fmt.Fprintf(w, "content:      %s (telemetry.capture_content)\n", export)
	fmt.Fprintf(w, "policy:       %s\n", strings.Join(s.Policy, ", "))
}

func listOrNone(xs []string) string {
	if len(xs) == 0 {
		return "none"
	}
	return strings.Join(xs, ", ")
}
