package policy

import (
	"testing"

	"github.com/josecorral/fluzo/lib/config"
	"github.com/josecorral/fluzo/lib/core"
)

func mcpOp(target string) Operation { return Operation{Kind: KindMCP, Target: target} }

func TestMCPCallsAskByDefaultAndGrantsAreExact(t *testing.T) {
	cfg, err := config.Parse([]byte("schema_version = 1\n[mcp.servers.everything]\ncommand = [\"node\"]\ndeny_tools = [\"get-env\"]\n"), ".fluzo")
	if err != nil {
		t.Fatal(err)
	}
	p, err := FromConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	echo := grant(t, "mcp:everything/echo", core.GrantTask)
	envGrant := grant(t, "mcp:everything/get-env", core.GrantTask)
	strict := p
	strict.MCP = ModeDeny
	cases := []struct {
		name   string
		p      Policy
		op     Operation
		grants []Grant
		yolo   bool
		want   Verdict
		reason Reason
	}{
		{"default ask", p, mcpOp("everything/echo"), nil, false, Ask, ReasonPolicyAsk},
		{"grant allows its tool", p, mcpOp("everything/echo"), []Grant{echo}, false, Allow, ReasonGrant},
		{"grant is not its server", p, mcpOp("everything/get-sum"), []Grant{echo}, false, Ask, ReasonPolicyAsk},
		{"grant is not another server's tool", p, mcpOp("other/echo"), []Grant{echo}, false, Ask, ReasonPolicyAsk},
		{"yolo turns ask into allow", p, mcpOp("everything/get-sum"), nil, true, Allow, ReasonYolo},
		{"deny_tools beats a grant", p, mcpOp("everything/get-env"), []Grant{envGrant}, false, Deny, ReasonExplicitDeny},
		{"deny_tools beats yolo", p, mcpOp("everything/get-env"), nil, true, Deny, ReasonExplicitDeny},
		{"policy.mcp=deny beats a grant", strict, mcpOp("everything/echo"), []Grant{echo}, true, Deny, ReasonPolicyDeny},
		{"no target is invalid", p, mcpOp(""), nil, true, Deny, ReasonInvalid},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := c.p.Evaluate(c.op, c.grants, c.yolo)
			if d.Verdict != c.want || d.Reason != c.reason {
				t.Errorf("got %+v, want %s/%s", d, c.want, c.reason)
			}
		})
	}
}

func TestMCPGrantSpecRoundTrips(t *testing.T) {
	s, err := ParseSpec("mcp:fs/read_text_file")
	if err != nil || s.Kind != KindMCP || s.Target != "fs/read_text_file" || s.String() != "mcp:fs/read_text_file" {
		t.Fatalf("%+v %v", s, err)
	}
	for _, bad := range []string{"mcp:", "mcp:fs", "mcp:/x", "mcp:a__b/x", "mcp:fs/a.b"} {
		if _, err := ParseSpec(bad); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
}
