package front

import "github.com/josecorral/fluzo/lib/cli/clidoc"

// ManSections adds the front command's man page sections.
func ManSections() []clidoc.Section {
	return []clidoc.Section{
		{Title: "Examples", Body: `Stream stored events and filter them with jq (or gojq):

  fluzo store events | jq 'select(.type == "task.created")'

List stored sessions of this repository:

  fluzo history list

Run the demo against the bundled simulator:

  fluzo demo --headless`},
		{Title: "Dispatch", Body: `A sibling binary is looked up first in the directory of the fluzo executable,
then on PATH. An unknown command is an error (exit 2) that lists the commands
that exist.`},
	}
}
