package agent

import "testing"

func TestHeadlessRunUsesOnePUnlessGOMAXPROCSIsSet(t *testing.T) {
	unset := func(string) string { return "" }
	if got := headlessProcs(unset); got != 1 {
		t.Errorf("without GOMAXPROCS: %d, want 1", got)
	}
	set := func(k string) string {
		if k == "GOMAXPROCS" {
			return "4"
		}
		return ""
	}
	if got := headlessProcs(set); got != 0 {
		t.Errorf("with GOMAXPROCS=4: %d, want 0 (left as the user set it)", got)
	}
}
