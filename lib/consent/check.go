package consent

import (
	"strings"

	"github.com/josecorral/fluzo/lib/config"
	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/store"
)

// Scope is what one consent decision is about: a workspace and the
// configuration selected for it, with the flags that selected it (so a
// hint can name the exact command that records consent for the same
// configuration).
type Scope struct {
	Workspace  store.Workspace
	Config     *config.Config
	ConfigFile string   // --config, if given
	Overrides  []string // --set KEY=VALUE, if given
}

// Check returns the consent recorded for the scope, or a
// configuration_required error naming the destinations and the exact
// command that records consent. It reads only the consent store: it never
// contacts a destination and never trusts anything in the workspace.
func (s Store) Check(sc Scope) (Record, error) {
	sum := Summarize(sc.Config)
	rec, ok, err := s.Lookup(sc.Workspace, sum.Fingerprint)
	if err != nil {
		return Record{}, err
	}
	if ok {
		for _, d := range sum.Cleartext() {
			if !rec.Allows(d.URL) {
				ok = false
			}
		}
	}
	if ok {
		return rec, nil
	}
	e := core.Errorf(core.CodeConfigurationRequired, "no consent for this configuration of %s: it sends data to %s",
		sc.Workspace.Root, describe(sum.Destinations))
	e = e.With("fingerprint", sum.Fingerprint).With("destinations", sum.Destinations).With("command", sc.GrantCommand(sum))
	if len(sum.Cleartext()) > 0 {
		return Record{}, e.WithHint("review it and accept the plain-HTTP exception explicitly: %s", sc.GrantCommand(sum))
	}
	return Record{}, e.WithHint("review and record consent: %s (or --yes for scripts; fluzo-agent run/serve --consent records it for CI)", sc.GrantCommand(sum))
}

// Grant records consent for the scope. allowHTTP lists the non-loopback
// plain-HTTP destinations the user accepts with the warned exception;
// every such destination must be named, and every name must be one.
func (s Store) Grant(sc Scope, how string, allowHTTP []string) (Record, error) {
	sum := Summarize(sc.Config)
	accepted := map[string]bool{}
	var allowed []string
	for _, u := range allowHTTP {
		if _, dup := accepted[redact(u)]; !dup {
			allowed = append(allowed, redact(u))
		}
		accepted[redact(u)] = false
	}
	var missing []string
	for _, d := range sum.Cleartext() {
		if _, ok := accepted[d.URL]; ok {
			accepted[d.URL] = true
		} else {
			missing = append(missing, d.URL)
		}
	}
	for u, used := range accepted {
		if !used {
			return Record{}, core.Errorf(core.CodeUsage, "--allow-http %s names no plain-HTTP destination of this configuration", u).
				WithHint("name a destination exactly as 'fluzo-admit consent show' lists it")
		}
	}
	if len(missing) > 0 {
		return Record{}, core.Errorf(core.CodeConfigurationRequired, "%s is plain HTTP to a host that is not loopback: requests, code and any credential travel in cleartext",
			strings.Join(missing, ", ")).
			With("cleartext", missing).
			WithHint("use https or a loopback endpoint, or accept the exception explicitly: %s", sc.GrantCommand(sum))
	}
	rec := Record{V: core.WireVersion, Type: "consent", Workspace: sc.Workspace, Fingerprint: sum.Fingerprint,
		GrantedAt: now(), How: how, Summary: sum, Cleartext: allowed}
	if rec.Cleartext == nil {
		rec.Cleartext = []string{}
	}
	return rec, s.write(rec)
}

// GrantCommand is the command line that records consent for the scope.
func (sc Scope) GrantCommand(sum Summary) string {
	args := []string{"fluzo-admit", "-C", sc.Workspace.Root}
	if sc.ConfigFile != "" {
		args = append(args, "--config", sc.ConfigFile)
	}
	for _, o := range sc.Overrides {
		args = append(args, "--set", o)
	}
	args = append(args, "consent", "grant")
	for _, d := range sum.Cleartext() {
		args = append(args, "--allow-http", d.URL)
	}
	for i, a := range args {
		args[i] = shellQuote(a)
	}
	return strings.Join(args, " ")
}

func describe(ds []Destination) string {
	if len(ds) == 0 {
		return "no network destination"
	}
	parts := make([]string, len(ds))
	for i, d := range ds {
		parts[i] = d.Purpose + " at " + d.URL + " (" + d.Class + ")"
	}
	return strings.Join(parts, ", ")
}

// shellQuote leaves plain words alone and single-quotes the rest, so a
// hint can be pasted into a shell as it is.
func shellQuote(s string) string {
	plain := s != ""
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./:=@,+%", r)) {
			plain = false
			break
		}
	}
	if plain {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
