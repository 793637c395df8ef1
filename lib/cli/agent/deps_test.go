package agent

import (
	"os/exec"
	"strings"
	"testing"
)

// unlinked are packages fluzo-agent must never link (issue 21, lean
// start): the simulator and the demo are test and showcase code, the TUI
// stack belongs to fluzo-tui. Each adds init work and resident pages to
// every headless run. The OTLP export is encoded by lib/telemetry/otlphttp:
// the OpenTelemetry exporters' generated types brought gRPC, the protobuf
// runtime and an HTTP gateway (7 MB of binary, 4.5 MiB resident per run).
var unlinked = []string{
	"google.golang.org/grpc",
	"google.golang.org/protobuf",
	"github.com/grpc-ecosystem/grpc-gateway",
	"go.opentelemetry.io/otel/exporters",
	"go.opentelemetry.io/proto",
	"github.com/josecorral/fluzo/lib/sim",
	"github.com/josecorral/fluzo/lib/demo",
	"github.com/josecorral/fluzo/lib/tui",
	"github.com/gdamore/tcell",
	"github.com/alecthomas/chroma",
	"github.com/yuin/goldmark",
}

func TestFluzoAgentLinksNoSimulatorDemoOrTUI(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "github.com/josecorral/fluzo/cmd/fluzo-agent").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 10 {
		t.Fatalf("go list -deps printed too little to be the import graph:\n%s", out)
	}
	for _, dep := range deps {
		for _, bad := range unlinked {
			if dep == bad || strings.HasPrefix(dep, bad+"/") {
				t.Errorf("cmd/fluzo-agent links %s", dep)
			}
		}
	}
}
