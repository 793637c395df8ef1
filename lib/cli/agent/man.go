package agent

import "github.com/josecorral/fluzo/lib/cli/clidoc"

// ManSections adds fluzo-agent's man page sections.
func ManSections() []clidoc.Section {
	return []clidoc.Section{
		{Title: "Control socket", Body: `A running owner listens on a private Unix socket,
${XDG_RUNTIME_DIR}/fluzo/agent-<hash of the workspace root>.sock (mode 0600),
and serves only connections from its own user (checked with SO_PEERCRED).
Commands are JSON lines such as

  {"v":1,"id":"c1","cmd":"status"}
  {"v":1,"id":"c2","cmd":"cancel","task":"tsk_..."}
  {"v":1,"id":"c3","cmd":"force_stop","task":"tsk_...","yes":true}

answered by {"v":1,"type":"ack","re":"c1",...} or a typed error record. Unknown
fields are rejected. force_stop without "yes":true is confirmation_required.`},
		{Title: "Files", Body: `<workspace>/.fluzo - the project configuration (required).
<workspace>/.fluzodrive/ - the store, artifacts and owner lock.
${XDG_RUNTIME_DIR}/fluzo/ - control sockets.`},
		{Title: "Examples", Body: `Ask the owner of this workspace what it is doing:

  fluzo-agent status

Cancel a task gracefully, or force-stop it:

  fluzo-agent cancel tsk_01J...
  fluzo-agent kill tsk_01J... --yes`},
	}
}
