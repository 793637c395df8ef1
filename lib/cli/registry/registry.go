// Package registry lists every toolkit binary with its command tree and
// entry point. The documentation generator and the testscript driver both
// read it, so a new binary is documented and testable once it is listed.
package registry

import (
	"github.com/josecorral/fluzo/lib/cli/admit"
	agentcli "github.com/josecorral/fluzo/lib/cli/agent"
	"github.com/josecorral/fluzo/lib/cli/clidoc"
	"github.com/josecorral/fluzo/lib/cli/front"
	"github.com/josecorral/fluzo/lib/cli/observe"
	clisim "github.com/josecorral/fluzo/lib/cli/sim"
	storecli "github.com/josecorral/fluzo/lib/cli/store"
	"github.com/josecorral/fluzo/lib/cli/tool"
	clitui "github.com/josecorral/fluzo/lib/cli/tui"
	"github.com/urfave/cli/v3"
)

// Toolkit names every binary of the finished toolkit, for SEE ALSO lines.
// It is fixed so that adding a binary does not rewrite every man page.
var Toolkit = []string{"fluzo", "fluzo-agent", "fluzo-tool", "fluzo-admit", "fluzo-store", "fluzo-observe", "fluzo-tui", "fluzo-sim"}

// Binary is one executable of the toolkit.
type Binary struct {
	Name    string
	Command func() *cli.Command
	Main    func() int
	// Sections adds man page sections (FILES, EXAMPLES, references).
	Sections func() []clidoc.Section
}

// All lists the toolkit's binaries in documentation order.
func All() []Binary {
	return []Binary{
		{Name: "fluzo", Command: front.Command, Main: front.Main, Sections: front.ManSections},
		{Name: "fluzo-agent", Command: agentcli.Command, Main: agentcli.Main, Sections: agentcli.ManSections},
		{Name: "fluzo-tool", Command: tool.Command, Main: tool.Main, Sections: tool.ManSections},
		{Name: "fluzo-store", Command: storecli.Command, Main: storecli.Main, Sections: storecli.ManSections},
		{Name: "fluzo-admit", Command: admit.Command, Main: admit.Main, Sections: admit.ManSections},
		{Name: "fluzo-sim", Command: clisim.Command, Main: clisim.Main, Sections: clisim.ManSections},
		{Name: "fluzo-observe", Command: observe.Command, Main: observe.Main, Sections: observe.ManSections},
		{Name: "fluzo-tui", Command: clitui.Command, Main: clitui.Main, Sections: clitui.ManSections},
	}
}

// Names returns the binary names.
func Names() []string {
	var out []string
	for _, b := range All() {
		out = append(out, b.Name)
	}
	return out
}
