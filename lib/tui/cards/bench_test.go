package cards

import "testing"

func BenchmarkRenderExecCardCollapsed(b *testing.B) {
	op := fixture("exec-truncated")
	b.ReportAllocs()
	for b.Loop() {
		Render(op, Options{Width: 100})
	}
}

func BenchmarkRenderExecCardExpanded(b *testing.B) {
	op := fixture("exec-truncated")
	b.ReportAllocs()
	for b.Loop() {
		Render(op, Options{Width: 100, Expanded: true})
	}
}
