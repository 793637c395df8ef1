package policy

import (
	"math/rand"
	"testing"

	"github.com/josecorral/fluzo/lib/core"
)

func exec(argv ...string) Operation { return Operation{Kind: KindExec, Argv: argv} }

func grant(t *testing.T, spec string, scope core.GrantScope) Grant {
	t.Helper()
	s, err := ParseSpec(spec)
	if err != nil {
		t.Fatal(err)
	}
	return Grant{ID: "g-" + spec, Scope: scope, Spec: s, Source: "user"}
}

func TestPrecedenceTable(t *testing.T) {
	def := Default()
	denyShell := def
	denyShell.Shell = ModeDeny
	allowShell := def
	allowShell.Shell = ModeAllow
	withDeny := def
	d, _ := ParseSpec("exec:cargo test")
	withDeny.Denies = []Spec{d}
	standing := def
	standing.Standing = []Grant{grant(t, "exec:make", core.GrantStanding)}

	cargo := exec("cargo", "test")
	cases := []struct {
		name   string
		p      Policy
		op     Operation
		grants []Grant
		yolo   bool
		want   Verdict
		reason Reason
	}{
		{"default asks", def, cargo, nil, false, Ask, ReasonPolicyAsk},
		{"yolo allows", def, cargo, nil, true, Allow, ReasonYolo},
		{"deny beats yolo", denyShell, cargo, nil, true, Deny, ReasonPolicyDeny},
		{"deny beats grant", denyShell, cargo, []Grant{grant(t, "exec:cargo test", core.GrantTask)}, true, Deny, ReasonPolicyDeny},
		{"explicit deny beats allow mode", func() Policy { p := withDeny; p.Shell = ModeAllow; return p }(), cargo, nil, true, Deny, ReasonExplicitDeny},
		{"explicit deny beats grant", withDeny, cargo, []Grant{grant(t, "exec:cargo test", core.GrantOnce)}, false, Deny, ReasonExplicitDeny},
		{"task grant", def, cargo, []Grant{grant(t, "exec:cargo test", core.GrantTask)}, false, Allow, ReasonGrant},
		{"once grant", def, cargo, []Grant{grant(t, "exec:cargo test", core.GrantOnce)}, false, Allow, ReasonGrant},
		{"standing grant", standing, exec("make"), nil, false, Allow, ReasonGrant},
		{"allow mode", allowShell, cargo, nil, false, Allow, ReasonPolicyAllow},
		{"destructive denied by default", allowShell, exec("rm", "-rf", "target"), nil, true, Deny, ReasonPolicyDeny},
		{"destructive in script", allowShell, Operation{Kind: KindShell, Script: "cargo test && git reset --hard"}, nil, true, Deny, ReasonPolicyDeny},
		{"destructive behind sh -c", allowShell, exec("sh", "-c", "echo hi; rm -rf src"), nil, true, Deny, ReasonPolicyDeny},
		{"destructive behind wrappers", allowShell, exec("env", "A=1", "sudo", "-n", "timeout", "5", "git", "reset", "--hard"), nil, true, Deny, ReasonPolicyDeny},
		{"nested shells", allowShell, Operation{Kind: KindShell, Script: "bash -c 'sh -c \"git clean -fdx\"'"}, nil, true, Deny, ReasonPolicyDeny},
		{"git push behind sh -c", func() Policy { p := allowShell; p.GitPush = ModeDeny; return p }(), exec("bash", "-lc", "git push origin main"), nil, true, Deny, ReasonPolicyDeny},
		{"harmless sh -c", allowShell, exec("sh", "-c", "ls -la"), nil, false, Allow, ReasonPolicyAllow},
		{"network denied", def, Operation{Kind: KindNetwork, Target: "example.com"}, nil, true, Deny, ReasonPolicyDeny},
		{"git commit asks", def, Operation{Kind: KindGitCommit}, nil, false, Ask, ReasonPolicyAsk},
		{"git push via exec follows git_push", func() Policy { p := allowShell; p.GitPush = ModeDeny; return p }(), exec("git", "push", "origin"), nil, true, Deny, ReasonPolicyDeny},
		{"credentials", def, Operation{Kind: KindCredential, Target: "x"}, nil, true, Deny, ReasonCredentials},
		{"read in workspace", def, Operation{Kind: KindRead, Path: "src/lib.rs"}, nil, false, Allow, ReasonPolicyAllow},
		{"write in workspace", def, Operation{Kind: KindWrite, Path: "src/lib.rs"}, nil, false, Allow, ReasonPolicyAllow},
		{"preexisting change asks", def, Operation{Kind: KindWrite, Path: "src/lib.rs", Preexisting: true, Version: "v1"}, nil, false, Ask, ReasonPolicyAsk},
		{"preexisting with yolo", def, Operation{Kind: KindWrite, Path: "src/lib.rs", Preexisting: true}, nil, true, Allow, ReasonYolo},
		{"outside workspace", def, Operation{Kind: KindWrite, Path: "../other/x"}, nil, true, Deny, ReasonOutsideWorkspace},
		{"read of the root", def, Operation{Kind: KindRead, Path: "."}, nil, false, Allow, ReasonPolicyAllow},
		{"read of the root spelled ./", def, Operation{Kind: KindRead, Path: "./"}, nil, false, Allow, ReasonPolicyAllow},
		{"read of the root via a/..", def, Operation{Kind: KindRead, Path: "src/.."}, nil, false, Allow, ReasonPolicyAllow},
		{"read of the root's parent", def, Operation{Kind: KindRead, Path: "./.."}, nil, true, Deny, ReasonOutsideWorkspace},
		{"write of the root", def, Operation{Kind: KindWrite, Path: "."}, nil, true, Deny, ReasonProtectedPath},
		{"write of the root even with yolo", def, Operation{Kind: KindWrite, Path: "src/.."}, nil, true, Deny, ReasonProtectedPath},
		{"delete of the root", def, Operation{Kind: KindDelete, Path: "./"}, nil, true, Deny, ReasonProtectedPath},
		{"absolute path", def, Operation{Kind: KindRead, Path: "/etc/passwd"}, nil, true, Deny, ReasonOutsideWorkspace},
		{"alias escaping", def, Operation{Kind: KindRead, Path: "src/../../x"}, nil, true, Deny, ReasonOutsideWorkspace},
		{"cwd outside", allowShell, Operation{Kind: KindExec, Argv: []string{"ls"}, Cwd: "../.."}, nil, true, Deny, ReasonOutsideWorkspace},
		{"protected .git write", def, Operation{Kind: KindWrite, Path: "./.git/config"}, nil, true, Deny, ReasonProtectedPath},
		{"protected .fluzo", def, Operation{Kind: KindWrite, Path: "sub/../.fluzo"}, nil, true, Deny, ReasonProtectedPath},
		{"fluzodrive invisible", def, Operation{Kind: KindRead, Path: ".fluzodrive/state.sqlite3"}, nil, true, Deny, ReasonProtectedPath},
		{"invalid op", def, Operation{Kind: "teleport"}, nil, true, Deny, ReasonInvalid},
		{"empty argv", def, Operation{Kind: KindExec}, nil, true, Deny, ReasonInvalid},
		{"undecodable arguments, even allowed, granted and yolo", allowShell, Operation{Kind: KindExec, Argv: []string{"ls"}, Undecodable: "env: expected a string"},
			[]Grant{{ID: "g", Scope: core.GrantTask, Spec: SpecFor(exec("ls"))}}, true, Deny, ReasonInvalid},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := c.p.Evaluate(c.op, c.grants, c.yolo)
			if got.Verdict != c.want || got.Reason != c.reason || got.Rule == "" {
				t.Errorf("got %+v, want %s/%s", got, c.want, c.reason)
			}
			if got.Yolo != (got.Reason == ReasonYolo) {
				t.Errorf("yolo attribution wrong: %+v", got)
			}
		})
	}
}

func TestYoloChangesOnlyAsk(t *testing.T) {
	ops := []Operation{exec("cargo", "test"), exec("rm", "-rf", "/"), {Kind: KindNetwork, Target: "h"},
		{Kind: KindGitPush}, {Kind: KindWrite, Path: "../x"}, {Kind: KindWrite, Path: "a", Preexisting: true},
		{Kind: KindCredential}, {Kind: KindRead, Path: ".fluzodrive/x"}, {Kind: KindShell, Script: "make"}}
	modes := []Mode{ModeAllow, ModeAsk, ModeDeny}
	for _, shell := range modes {
		for _, git := range modes {
			p := Default()
			p.Shell, p.GitPush, p.ToolNetwork = shell, git, git
			for _, op := range ops {
				exact := []Grant{{ID: "g", Scope: core.GrantTask, Spec: SpecFor(op)}}
				if granted := p.Evaluate(op, exact, true); p.Evaluate(op, nil, false).Verdict == Deny && granted.Verdict != Deny {
					t.Errorf("%+v: a grant plus yolo overrode a deny: %+v", op, granted)
				}
				normal, yolo := p.Evaluate(op, nil, false), p.Evaluate(op, nil, true)
				if normal.Verdict == Ask {
					if yolo.Verdict != Allow || yolo.Reason != ReasonYolo {
						t.Errorf("%+v: ask became %+v under yolo", op, yolo)
					}
				} else if normal != yolo {
					t.Errorf("%+v: yolo changed %+v into %+v", op, normal, yolo)
				}
			}
		}
	}
}

func TestExactScopeMatching(t *testing.T) {
	g := grant(t, "exec:cargo test", core.GrantTask)
	p := Default()
	covered := exec("cargo", "test")
	if d := p.Evaluate(covered, []Grant{g}, false); d.Verdict != Allow || d.Grant != g.ID {
		t.Fatalf("exact match not allowed: %+v", d)
	}
	notCovered := []Operation{
		exec("cargo", "test", "--release"),
		exec("cargo"),
		exec("cargo", "test;", "rm", "-rf", "x"),
		exec("sh", "-c", "cargo test; rm -rf x"),
		{Kind: KindShell, Script: "cargo test"},
		{Kind: KindShell, Script: "cargo test; rm -rf x"},
		{Kind: KindExec, Argv: []string{"cargo", "test"}, Cwd: "crates/a"},
		{Kind: KindExec, Argv: []string{"cargo", "test"}, Env: map[string]string{"RUSTFLAGS": "-C x"}},
		exec("/usr/bin/cargo", "test"),
		exec("cargo", "test "),
		exec("Cargo", "test"),
	}
	for _, op := range notCovered {
		if d := p.Evaluate(op, []Grant{g}, false); d.Verdict == Allow {
			t.Errorf("grant for cargo test covered %+v: %+v", op, d)
		}
	}
	// cwd aliases of the same directory are the same scope.
	for _, cwd := range []string{"", ".", "./", "a/.."} {
		if d := p.Evaluate(Operation{Kind: KindExec, Argv: []string{"cargo", "test"}, Cwd: cwd}, []Grant{g}, false); d.Verdict != Allow {
			t.Errorf("cwd %q: %+v", cwd, d)
		}
	}
	scoped := grant(t, "cwd=crates/a env=RUST_LOG=debug exec:cargo test", core.GrantTask)
	op := Operation{Kind: KindExec, Argv: []string{"cargo", "test"}, Cwd: "./crates/a/", Env: map[string]string{"RUST_LOG": "debug"}}
	if !specMatches(scoped.Spec, op) {
		t.Error("qualified grant does not match its own scope")
	}
	op.Env = map[string]string{"RUST_LOG": "debug", "EXTRA": "1"}
	if specMatches(scoped.Spec, op) {
		t.Error("added env override matched")
	}
}

func TestFileGrantsBindPathAndVersion(t *testing.T) {
	g := grant(t, "write:src/a.rs@sha256:1", core.GrantOnce)
	ok := Operation{Kind: KindWrite, Path: "./src//a.rs", Version: "sha256:1", Preexisting: true}
	if !specMatches(g.Spec, ok) {
		t.Error("path alias of the same file not matched")
	}
	for _, op := range []Operation{
		{Kind: KindWrite, Path: "src/a.rs", Version: "sha256:2"},
		{Kind: KindWrite, Path: "src/a.rs.bak", Version: "sha256:1"},
		{Kind: KindWrite, Path: "src/A.rs", Version: "sha256:1"},
		{Kind: KindDelete, Path: "src/a.rs", Version: "sha256:1"},
		{Kind: KindWrite, Path: "src", Version: "sha256:1"},
	} {
		if specMatches(g.Spec, op) {
			t.Errorf("matched %+v", op)
		}
	}
}

// TestRandomMutationsNeverMatch is a property test: any change to an
// approved argv (an added, removed or altered word, shell metacharacters
// appended) is not covered by the grant.
func TestRandomMutationsNeverMatch(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	words := []string{"cargo", "test", "--release", ";", "&&", "|", "rm", "-rf", "$(id)", "`x`", ">", "o", "", " ", "test;", "\n"}
	for i := 0; i < 5000; i++ {
		base := make([]string, 1+rng.Intn(4))
		for j := range base {
			base[j] = words[rng.Intn(len(words))]
		}
		if base[0] == "" {
			base[0] = "x"
		}
		spec := SpecFor(exec(base...))
		back, err := ParseSpec(spec.String())
		if err != nil || !specMatches(back, exec(base...)) {
			t.Fatalf("round trip of %q via %q: %v", base, spec.String(), err)
		}
		mut := append([]string{}, base...)
		switch rng.Intn(3) {
		case 0:
			mut = append(mut, words[rng.Intn(len(words))])
		case 1:
			if len(mut) > 1 {
				mut = mut[:len(mut)-1]
			} else {
				mut = append(mut, ";")
			}
		case 2:
			k := rng.Intn(len(mut))
			mut[k] += words[1+rng.Intn(len(words)-1)]
			if mut[k] == base[k] {
				mut[k] += "x"
			}
		}
		if specMatches(back, exec(mut...)) {
			t.Fatalf("grant %q covered mutated argv %q", spec.String(), mut)
		}
	}
}
