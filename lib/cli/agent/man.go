package agent

import "github.com/josecorral/fluzo/lib/cli/clidoc"

// ManSections adds fluzo-agent's man page sections.
func ManSections() []clidoc.Section {
	return []clidoc.Section{
		{Title: "Result record", Body: `run and resume always end with one JSON line (so does "fluzo demo", which runs "fluzo-agent run"):

  {"v":1,"type":"result","status":"completed","reason":"","session":"ses_...",
   "task":"tsk_...","attempt":"att_...","trace":"...","turns":5,"tool_calls":4,
   "verification":{"completed":true,"verification":"passed","evidence":{...}},
   "diff":{"type":"diff_summary","pre_existing":[...],"changed":[...]},
   "summary":"...","usage":{...},"error":{...},"pending":{...},
   "worktree":{"task":"tsk_...","path":".fluzodrive/worktrees/tsk_...","branch":"fluzo/tsk_...","base":"..."}}

status is completed only when the verification command passed at the final
workspace state after the last edit; otherwise it names what stopped the task
(failed, permission_required, permission_denied, budget_exhausted, blocked,
cancelled, provider_error, ...) and the exit status follows the table below.
verification is passed, failed, stale, not_run, not_configured or waived;
a verification command the task's cancellation ended or kept from starting
is not_run with reason verification_cancelled (never failed), and the task
ends cancelled.
A task needs a verification command (--verify, harness.verify_command, or a
test command quoted in the task) or an explicit waiver (--no-verify, or
"no_verify":true in start_task): without either it fails at once with reason
verification_not_configured and no model request. A waiver is recorded as a
verification.waived event, committed with task.created, and carries over to
resume. pending names the operation a headless run stopped at. worktree is
present when the task ran in a worktree (run --worktree, repair).
error is present exactly when status is not completed: a typed error whose
code is the status, saying why (never absent on a failed run, never present
on a completed one). usage, like turns, is the task's: a resumed run counts
the requests of earlier attempts too.

After a crash (the owner was killed mid-task), status, "fluzo-store tasks",
"fluzo-store show" and "fluzo-observe diag" call the task interrupted, not
running, and name the command that continues it: fluzo-agent resume TASK.
The next owner's restart recovery closes the task's records; its human
output labels those events "recovery of task TASK".

If the tool backend (the fluzo-tool serve child) exits while a call runs,
that operation is recorded unknown (it may have taken effect; it is never
replayed) with a tool_backend.lost event. An attempt restarts the backend at
most once (a tool_backend.restarted event naming the new backend's identity:
host, root, repository and sandbox from its hello) and the model carries on, but
that attempt never ends completed: it ends failed with reason
tool_backend_lost (exit 1) even when verification passes or is waived, since
the lost call's effect is unknown; resume the task after checking the
workspace. A second loss, or a failed restart, stops the task at once the
same way.

No process a tool backend started outlives it: the kernel kills a
command when its fluzo-tool dies (parent-death signal), and the owner is
the child subreaper of its tool trees, so what those commands forked
(daemons in sessions of their own, background jobs) is handed to the owner
and ended — before a restarted backend runs anything, and before the owner
releases the workspace lock — with a tool_backend.processes_ended event
naming them (and any still alive after a bounded wait, as unconfirmed).
The owner waits at most 30 seconds for a closed fluzo-tool to stop its
commands and exit; one that does not is killed, which the same event
records (reason tool_backend_killed_after_exit_wait).
Orphans are told from the owner's own children by no_new_privs, which
fluzo-tool serve sets on every child and every descendant inherits; an owner
that itself runs with no_new_privs cannot tell them apart, ends none and
says so (unverified).`},
		{Title: "Tool backends", Body: `Every action on the workspace and every read the runtime makes of it
(baseline, file versions, verification fingerprint, AGENTS.md, git status, diff
line counts) is a request to the tool backend: by default the local "fluzo-tool
serve --root WORKSPACE". [tools] backend in .fluzo, or --backend on run, resume
and serve (one JSON array, overriding it), names another command as an argv
array run without a shell; it must give a fluzo-tool serve on its stdin and
stdout:

  ssh:        ["ssh", "-T", "-o", "BatchMode=yes", "host", "fluzo-tool", "serve", "--root", "/srv/repo"]
  Kubernetes: ["kubectl", "exec", "-i", "POD", "--", "fluzo-tool", "serve", "--root", "/work/repo"]
  Docker:     ["docker", "exec", "-i", "CONTAINER", "fluzo-tool", "serve", "--root", "/work/repo"]
  bubblewrap: ["bwrap", "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc",
               "--tmpfs", "/tmp", "--setenv", "TMPDIR", "/tmp",
               "--bind", "DIR", "DIR", "--unshare-net", "--die-with-parent",
               "fluzo-tool", "serve", "--root", "DIR"]

The store, journal, policy, provider, consent and control socket stay in the
local workspace; files, commands and verification happen in the backend's root.
The session starts with a handshake: a backend speaking another tool protocol
revision is refused (protocol_mismatch, both revisions named; install the same
release on both sides), and the identity it gives (host, root, repository) is
recorded as a tool_backend.connected event with each attempt; resume refuses
another host or root. Cancel and kill reach the remote processes through the
protocol. A lost connection makes the running call unknown and records
tool_backend.lost; the runtime reconnects once. docs/REMOTE.md has the details.`},
		{Title: "Port protocol", Body: portProtocolDoc},
		{Title: "Control socket", Body: `A running owner listens on a private Unix socket,
${XDG_RUNTIME_DIR}/fluzo/agent-<hash of the workspace root>.sock (mode 0600),
and serves only connections from its own user (checked with SO_PEERCRED).
Commands are JSON lines such as

  {"v":1,"id":"c1","cmd":"status"}
  {"v":1,"id":"c2","cmd":"cancel","task":"tsk_..."}
  {"v":1,"id":"c3","cmd":"force_stop","task":"tsk_...","yes":true}

answered by {"v":1,"type":"ack","re":"c1",...} or a typed error record. Unknown
fields are rejected. status's state is idle, running, waiting or stopping;
waiting means an approval is open and nobody answered it yet (no timeout:
the task waits for the user) and adds "waiting":{"reason":"permission",
"operation":"op_..."}. force_stop without "yes":true is confirmation_required.`},
		{Title: "Recovery", Body: `Opening a workspace as its owner first applies the restart rules: attempts
recorded as running become interrupted, operations with an intent but no
outcome become unknown, and their tasks blocked. Nothing is executed and no
provider is contacted. resume is explicit and never replays an operation
whose outcome is unknown. It refuses a workspace whose identity, branch or
revision changed, and revalidates the files earlier attempts viewed or wrote:
those whose content changed since are listed in a resume.revalidation event
and the model is told to view them again (the edit tools refuse their old
versions). A verification waiver carries over; --verify or --no-verify given
to resume replaces the task's contract.

Compaction failures block the task with their own reason:
compaction_provider_error, compaction_invalid_summary,
compaction_still_too_large, compaction_budget_exhausted,
compaction_persistence_failed or compaction_nothing_eligible; a cancel while
the compaction request is in flight ends the task cancelled with reason
compaction_cancelled. The context is never switched on failure.`},
		{Title: "Environment", Body: `FLUZO_TEST_PROFILE=fault with FLUZO_FAULT=after_task_created,
FLUZO_FAULT=after_intent_commit or FLUZO_FAULT=after_dispatch kills the process with SIGKILL at that crash
boundary (recovery tests only; ignored without the test profile).
XDG_RUNTIME_DIR locates control sockets; XDG_STATE_HOME the consent store.
fluzo-agent marks itself non-dumpable at start (prctl PR_SET_DUMPABLE 0), so
other processes of the user cannot read its environment or memory. It alone
resolves provider keys: fluzo-tool starts without any configured api_key_env
variable and without credential-looking ones (*_KEY, *_TOKEN, *_SECRET,
*PASSWORD*, AWS_*, OTEL_EXPORTER_OTLP_* ...).`},
		{Title: "Files", Body: `<workspace>/.fluzo - the project configuration (required).
<workspace>/.fluzodrive/ - the store, artifacts and owner lock.
<workspace>/.fluzodrive/worktrees/TASK/ - the git worktree of a task run with
--worktree, on branch fluzo/TASK; review, accept, repair, reject.
${XDG_RUNTIME_DIR}/fluzo/ - control sockets.
${XDG_STATE_HOME:-~/.local/state}/fluzo/consent/ - consent records (see
fluzo-admit(1), consent): run, resume and serve exit 3 (configuration_required)
before opening or contacting anything when the configuration has none; --consent
records it.`},
		{Title: "Examples", Body: `Fix the bundled Rust fixture against fluzo-sim (fluzo demo runs fluzo-agent run):

  fluzo demo --headless

Run a task with an exact grant and a verification command:

  fluzo-agent run --task "the parser test fails; fix it" --verify "cargo test" --allow "exec:cargo test"

From another terminal: what is running, cancel it, or force-stop it:

  fluzo-agent status
  fluzo-agent cancel tsk_01J...
  fluzo-agent kill tsk_01J... --yes

Continue after a crash, and show what the model was first given:

  fluzo-agent resume tsk_01J... --allow "exec:cargo test"
  fluzo-agent debug prompt tsk_01J...

Run in a worktree of its own, then review and accept (or repair, or reject):

  fluzo-agent run --worktree --task "fix the parser test" --verify "cargo test" --allow "exec:cargo test"
  fluzo-agent review tsk_01J...
  fluzo-agent accept tsk_01J...
  fluzo-agent repair tsk_01J... --task "keep the old error message"
  fluzo-agent reject tsk_01J... --yes`},
	}
}
