package admit

import (
	"fmt"
	"strings"

	"github.com/josecorral/fluzo/lib/cli/clidoc"
	"github.com/josecorral/fluzo/lib/config"
)

// ManSections adds fluzo-admit's man page sections; the settings
// reference is rendered from the registry, so it cannot drift.
func ManSections() []clidoc.Section {
	return []clidoc.Section{
		{Title: "Operations", Body: operationsDoc},
		{Title: "Grant specs", Body: grantsDoc},
		{Title: "Settings", Body: settingsReference()},
		{Title: "Files", Body: filesDoc},
		{Title: "Environment", Body: `No environment variable changes a setting. XDG_CONFIG_HOME locates the
credential file auth.toml; XDG_STATE_HOME the consent store. lock hold sets
FLUZO_OWNER_INSTANCE for COMMAND.`},
		{Title: "Examples", Body: examplesDoc},
	}
}

// settingsReference renders every registry entry.
func settingsReference() string {
	var b strings.Builder
	b.WriteString(`Every key of .fluzo, with its type, unit, default, valid values, privacy
class and when a change applies (live; future work; safe_boundary: active work
only after an explicit apply; restart). "<id>" stands for an entry name of the
models and capacity_pools collections.
`)
	for _, s := range config.Settings() {
		key := strings.ReplaceAll(s.Key, "*", "<id>")
		meta := string(s.Kind)
		if s.Unit != "" {
			meta += ", " + s.Unit
		}
		// The key line is shown verbatim, the explanation as a filled paragraph.
		fmt.Fprintf(&b, "\n  %s (%s; default %s)\n", key, meta, config.FormatValue(s.Default))
		fmt.Fprintf(&b, "%s\nValid: %s. Privacy: %s. Applies: %s.\n", s.Description, s.ValidRange(), s.Privacy, s.Apply)
	}
	return b.String()
}

const operationsDoc = `check reads one JSON object per line. Common fields: "v" (1), "id" (echoed
as "re"), "op". Per operation:

  {"v":1,"id":"1","op":"exec","argv":["cargo","test"],"cwd":".","env":{"K":"V"}}
  {"v":1,"id":"2","op":"shell","script":"cargo test && cargo fmt"}
  {"v":1,"id":"3","op":"write","path":"src/lib.rs","version":"sha256:...","preexisting":true}
  {"v":1,"id":"4","op":"read","path":"README.md"}
  {"v":1,"id":"5","op":"delete","path":"tmp/x"}
  {"v":1,"id":"6","op":"git_commit"}   {"op":"git_push"}
  {"v":1,"id":"7","op":"network","target":"crates.io"}
  {"v":1,"id":"8","op":"credential","target":"name"}
  {"v":1,"id":"9","op":"mcp","target":"everything/echo"}   (the tool mcp__everything__echo)

Decisions, strongest rule first: invalid operations, paths outside the
workspace, writes to .git, .fluzo or .fluzodrive (which is also unreadable) and
credential access are denied whatever the grants or YOLO; then --deny specs and
policy modes set to "deny"; then "allow" modes; then a matching grant
(standing from policy.grants, task, once); then YOLO, which only turns ask into
allow (reason "yolo"); otherwise ask. Commands that discard work (rm -r/-f, git
reset --hard, git clean -f, forced pushes, ...) use the stricter of policy.shell
and policy.destructive_commands; git commit/push commands also follow
policy.git_commit/git_push. MCP tool calls follow policy.mcp (ask or deny),
and each server's deny_tools are explicit denies; what a server says about a
tool (read-only, destructive) never changes a decision. Reasons: policy_allow, approval_required,
policy_deny, explicit_deny, grant, yolo, outside_workspace, protected_path,
credentials_denied, invalid_operation.`

const grantsDoc = `A grant covers exactly one scope; it never extends to prefixes, extra
arguments, chained commands, other directories or added environment overrides.

  exec:cargo test                  argv ["cargo","test"] in the workspace root
  cwd=crates/a exec:cargo test     the same command in crates/a only
  env=RUST_LOG=debug exec:make     make with exactly that override
  shell:cargo test && cargo fmt    that exact script text
  write:src/lib.rs@sha256:...        that file at that observed version
  read:PATH   delete:PATH[@VERSION]   git_commit   git_push   network:HOST
  mcp:everything/echo              the MCP tool mcp__everything__echo only

Words of exec specs are split like a shell splits a simple command ('...', "..."
and \ quote); ; | & and $ are ordinary characters. In --grants files each line
is a spec, optionally prefixed by "once " (a one-time grant) or "task ".`

const filesDoc = `<workspace>/.fluzo
  The project configuration (TOML, schema_version = 1). Data only; never
  credentials. Written atomically; comments survive config set.

${XDG_CONFIG_HOME:-~/.config}/fluzo/auth.toml
  Credentials referenced by credential_ref, mode 0600:
  [credentials.NAME] endpoint = "URL" (optional binding), api_key = "...".

<workspace>/.fluzodrive/owner.lock, owner.json
  The workspace-owner lock (flock) and the owner record: instance, pid, start
  time, boot id, control socket, protocol version and, after a crash, the
  previous owner marked crashed. The pid is information, never proof.

${XDG_STATE_HOME:-~/.local/state}/fluzo/consent/
  Consent records (consent grant): one FINGERPRINT.json, mode 0600, per
  configuration, in one 0700 directory per workspace identity (resolved
  root, device, inode), written atomically. Never inside the workspace, so
  a cloned .fluzo or a copied .fluzodrive/ carries none.`

const examplesDoc = `Create and check a configuration:

  fluzo-admit config init && fluzo-admit config validate

Would the agent be allowed to run the tests?

  echo '{"v":1,"id":"1","op":"exec","argv":["cargo","test"]}' | fluzo-admit check

Allow it for a check, or deny shell commands for one invocation:

  ... | fluzo-admit check --allow 'exec:cargo test'
  ... | fluzo-admit check --yolo --set policy.shell=deny

List the MCP servers, then connect to one and list the tools it offers:

  fluzo-admit mcp list && fluzo-admit mcp tools everything

Show where every effective value comes from:

  fluzo-admit config show --effective --provenance

Review what the configuration sends where, and consent to it (in CI: --yes):

  fluzo-admit consent show
  fluzo-admit consent grant
  fluzo-admit consent grant --yes --allow-http http://10.0.0.5:8080/v1`
