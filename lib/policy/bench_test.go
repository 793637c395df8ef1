package policy

import (
	"testing"

	"github.com/josecorral/fluzo/lib/core"
)

// BenchmarkEvaluate is the policy cost of one tool call with a handful of
// grants (part of the per-turn runtime overhead).
func BenchmarkEvaluate(b *testing.B) {
	p := Default()
	var grants []Grant
	for _, s := range []string{"exec:cargo test", "exec:cargo build", "write:src/a.rs@v1", "shell:make check"} {
		spec, _ := ParseSpec(s)
		grants = append(grants, Grant{ID: s, Scope: core.GrantTask, Spec: spec})
	}
	op := Operation{Kind: KindShell, Script: "cargo fmt && cargo clippy"}
	for i := 0; i < b.N; i++ {
		p.Evaluate(op, grants, false)
	}
}
