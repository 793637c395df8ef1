package registry

import (
	"os/exec"
	"strings"
	"testing"
)

// What each binary must never link, and why; one table, read by one test.
// A name ending in /... refuses the package and everything below it.
var refused = map[string]struct {
	why  string
	pkgs []string
}{
	// The simulator and the demo are test and showcase code (fluzo demo
	// reaches fluzo-sim and fluzo-agent as separate processes), the TUI
	// stack belongs to fluzo-tui; each adds init work and resident pages
	// to every headless run. The OTLP export is lib/telemetry/otlphttp:
	// the OpenTelemetry exporters' generated types brought gRPC, the
	// protobuf runtime and an HTTP gateway (7 MB of binary, 4.5 MiB
	// resident per run). Issue 21, lean start.
	"fluzo-agent": {"lean start", []string{
		"github.com/josecorral/fluzo/lib/sim/...",
		"github.com/josecorral/fluzo/lib/demo/...",
		"github.com/josecorral/fluzo/lib/tui/...",
		"github.com/gdamore/tcell/...",
		"github.com/alecthomas/chroma/...",
		"github.com/yuin/goldmark/...",
		"google.golang.org/grpc/...",
		"google.golang.org/protobuf/...",
		"github.com/grpc-ecosystem/grpc-gateway/...",
		"go.opentelemetry.io/otel/exporters/...",
		"go.opentelemetry.io/proto/...",
	}},
	// fluzo-tool starts with every task and again as the sandbox launcher
	// of every command: it stays a static executable, with no dynamic
	// loader and no libc start-up at each exec. Linking net (or any
	// package with cgo files) makes it a dynamic one (lib/core/syserr.go).
	"fluzo-tool": {"a static executable", []string{"runtime/cgo", "net", "os/user"}},
}

func TestBinariesLinkNothingTheyMustNot(t *testing.T) {
	for bin, rule := range refused {
		out, err := exec.Command("go", "list", "-deps", "github.com/josecorral/fluzo/cmd/"+bin).CombinedOutput()
		if err != nil {
			t.Fatalf("go list: %v\n%s", err, out)
		}
		deps := strings.Fields(string(out))
		if len(deps) < 10 {
			t.Fatalf("go list -deps printed too little to be the import graph:\n%s", out)
		}
		for _, dep := range deps {
			for _, bad := range rule.pkgs {
				base, tree := strings.CutSuffix(bad, "/...")
				if dep == base || tree && strings.HasPrefix(dep, base+"/") {
					t.Errorf("cmd/%s links %s (%s)", bin, dep, rule.why)
				}
			}
		}
	}
}
