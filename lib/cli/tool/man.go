package tool

import "github.com/josecorral/fluzo/lib/cli/clidoc"

// ManSections adds fluzo-tool's man page sections.
func ManSections() []clidoc.Section {
	return []clidoc.Section{
		{Title: "Protocol", Body: `One JSON object per line on stdin and stdout. A request:

  {"v":1,"id":"r1","tool":"edit","args":{"path":"a.go","old_string":"x","new_string":"y","expect_version":"<sha256>"}}

Its answer, in any order relative to other requests, names it in "re":

  {"v":1,"type":"result","re":"r1","ok":true,"result":{...}}
  {"v":1,"type":"error","re":"r1","ok":false,"error":{"code":"stale_version","message":"...","hint":"..."}}

Controls act on a running exec, shell or git request:

  {"v":1,"id":"c1","control":"cancel","target":"r1"}
  {"v":1,"id":"c2","control":"kill","target":"r1"}
  {"v":1,"id":"c3","control":"kill","pid":12345}

cancel sends SIGTERM to the request's process group and answers with an ack; if
processes remain after the grace period a {"type":"stopping","re":"c1",
"target":"r1","survivors":[{"pid":...,"command":...}]} record names them. kill sends
SIGKILL to the group, its session and its descendants; a pid is accepted only when
it belongs to a group this server started (otherwise not_owned). The interrupted
request still ends with its result, flagged cancelled or killed.

A request may carry "max_seconds": the caller's remaining budget. It caps the
timeout of any process the request runs, whatever timeout_seconds the
arguments (written by the model) ask for; the result then says
"timeout_capped":true.

Unknown fields in requests and arguments are errors (invalid_request).`},
		{Title: "Handshake and queries", Body: `A runtime opens the session with a hello query before any tool request:

  {"v":1,"id":"q1","query":"hello","args":{"protocol":2,"settings":{...}}}

The answer names the backend: "protocol" (the tool protocol revision, 2),
"version" (the release), "host", "root" (resolved) with its "device" and
"inode", and "repository" {top_level, head, branch}. A caller speaking another
revision gets protocol_mismatch with backend_protocol and runtime_protocol.
"settings" ({grace_seconds, capture_limit, env, inherit_env, sandbox,
sandbox_network, sandbox_write, sandbox_read}, the same as the flags) apply
before the first tool request and are refused after it. A hello also locks the
root for the session (flock on the directory): a second runtime's hello on the
same root waits up to 15 s, then gets workspace_busy.

The runtime's other reads of the workspace are read-only queries too, answered
beneath the same confinement and never offered to the model: baseline (the
'fluzo-tool baseline' record), fingerprint {fingerprint}, file_versions {paths}
→ {versions}, agents_md → {files:[{path, scope, content, truncated}]},
git_state → {head, branch, status, total}, line_counts {head, paths, new} →
{counts}. An unknown name is unknown_query.

Because the protocol is all a runtime needs, any command that runs "fluzo-tool
serve" with its stdin and stdout connected is a backend: ssh -T HOST fluzo-tool
serve --root DIR, kubectl exec -i POD -- fluzo-tool serve --root DIR, docker
exec -i CONTAINER fluzo-tool serve --root DIR, or bwrap ... fluzo-tool serve.
See docs/REMOTE.md.`},
		{Title: "Tools", Body: `view {path, offset?, limit?}; ls {path?, depth?}; glob {pattern, path?};
grep {pattern, path?, include?, literal?}; write {path, content, expect_version};
edit {path, old_string, new_string, replace_all?, expect_version};
exec {argv, cwd?, env?, timeout_seconds?}; shell {script, cwd?, env?, timeout_seconds?};
git_status {}; git_diff {staged?, paths?}; git_log {n?}; git_show {rev};
git_add {paths}; git_commit {message}; git_push {remote?, branch?}.

'fluzo-tool schema' prints the exact parameter schemas and descriptions.

expect_version is the sha256 of the file's content as returned by view, or
"absent" to create a file; any other content is stale_version and nothing is
written. Writes go to a temporary file in the same directory, are flushed, and
renamed over the original, keeping its mode.`},
		{Title: "Confinement", Body: `Every path resolves beneath the root handle with openat2(RESOLVE_BENEATH|
RESOLVE_NO_MAGICLINKS): "..", absolute paths outside the root and symlinks leading
out are refused (outside_root). Symlinks that stay inside are followed. Devices,
FIFOs and sockets are refused (special_file); writes to files with more than one
link are refused (hard_link_refused). .git, .fluzo, .fluzodrive and the user's
auth file are refused (protected_path) by file identity, so symlinks, hard links
and "a/../.git" spellings are caught; a read of a file with more than one link
is refused (protected_path) when it is another name of any file beneath .git or
.fluzodrive (or when those trees are too large to check). Without openat2 every
file tool fails with confinement_unavailable. ls, glob and grep list what "git
ls-files -co --exclude-standard" lists (or honour .gitignore files outside a
repository), each name verified to exist beneath the root through directory
handles opened without following any symlink, so a directory swapped for a
symlink mid-listing cannot bring in names from outside; they never show
secret-bearing files such as .env, *.pem or id_* keys.

The openat2 jail covers the file tools; exec and shell children are confined
by the sandbox (next section).`},
		{Title: "Sandbox", Body: `With --sandbox landlock (the default; tools.sandbox.mode in .fluzo) every exec
and shell child is confined with Landlock by fluzo-tool itself, so a remote
backend enforces it too. The child is started through a hidden launcher
(fluzo-tool sandbox-exec) that sets no_new_privs, restricts itself and then
execs the command. The child may:

  write beneath the workspace root, its private TMPDIR (a fresh directory per
  server, removed when it ends) and the build caches: GOCACHE, GOMODCACHE (or
  GOPATH/pkg/mod), XDG_CACHE_HOME (or ~/.cache), CARGO_TARGET_DIR and cargo's
  registry and git checkouts — plus every --sandbox-write PATH;
  read and execute the system (/usr, /bin, /lib*, /etc, /opt, /proc, /sys),
  every absolute PATH entry, the Go root of the go on PATH, RUSTUP_HOME,
  CARGO_HOME/bin and every --sandbox-read PATH;
  read ~/.gitconfig, git's config, ignore and attributes files, cargo's
  config.toml and rustup's settings.toml;
  use /dev/null, /dev/zero, /dev/full, /dev/random, /dev/urandom and /dev/tty.

Everything else is refused with EACCES: the rest of the home directory (so
~/.ssh, ~/.netrc, ~/.config/gh, cargo's credentials.toml and Fluzo's auth.toml
are unreadable), writes anywhere else, TCP connect and bind (Landlock ABI 4 or
newer; --sandbox-network allow lifts it), signals to processes outside the
sandbox and, with the network denied, abstract unix sockets (ABI 6 or newer).
A PATH entry that is the home directory, one of its ancestors or "/" is never
granted.

.git, .fluzo and .fluzodrive: Landlock cannot refuse a path beneath a granted
directory, so the launcher first binds each one read-only over itself in a
private mount namespace ("protected":"read_only_mount"; Landlock then forbids
the child to change mounts). fluzo-tool with CAP_SYS_ADMIN creates it
directly; any other user's children start in their own user namespace that
maps only that user's uid and gid (the launcher holds CAP_SYS_ADMIN there
just long enough to bind, then drops it). Where user namespaces are refused
(a kernel or security-module restriction, found by a probe on the first
command) and fluzo-tool lacks CAP_SYS_ADMIN, commands are refused with
sandbox_unavailable: the same privilege makes the command's PID namespace.

Each command runs in a PID namespace of its own whose init is the launcher:
it forks the command, reaps every orphan of the namespace, mounts the
namespace's own /proc (so $$, /proc/self and ps agree, and no process
outside the namespace is listed) and, when the command ends, reports its
exit status to fluzo-tool and stays until fluzo-tool has stopped what the
command left (SIGTERM, grace, SIGKILL; named under "ended"). When the
launcher dies — with fluzo-tool, through its parent-death signal, even when
the owner and fluzo-tool are SIGKILLed at the same instant — the kernel
kills every process of the namespace, daemons in sessions of their own
included. The owner's workspace lock outlives them: given the lock
(fluzo-agent passes it), serve starts a lock keeper (its own session, no
parent-death signal) holding a duplicate of the lock descriptor and a pidfd
of every launcher, and a launcher starts its command only once the keeper
has it. When serve is gone the keeper waits for every launcher to exit — a
PID namespace's init exits only after the kernel killed and reaped every
process of the namespace — and only then closes the lock, so a later owner
cannot take the workspace while a command could still write. (Without the
keeper a SIGKILLed owner's lock was free up to 263 ms, measured on a loaded
two-core machine, before its commands were gone.)
A protected name that does not exist yet (a repository without .fluzo) has
nothing to bind, so the child can create it; the check below reports it. Either way, after every command fluzo-tool
compares the identity and content of .git/config, HEAD, hooks/ and info/,
.fluzo and the identity of .fluzodrive with their state before it and lists
each change in the result's protected_changed; baseline and diff do the same
across a task.

Every exec and shell result carries "sandbox": the mode, the Landlock ABI,
the network setting, how protected paths were kept and what is refused.
Where the kernel has no Landlock, exec and shell fail with
sandbox_unavailable (exit 1) and nothing runs; file tools still work.
--sandbox off runs children unconfined and the result says so.

Not covered: UDP (DNS included) and connections to named unix sockets;
processes outside Fluzo running as the same user, which can still read and write all
the user's files; and git metadata outside the root (a worktree's .git file
points there, and the child cannot read it).

FLUZO_TEST_LANDLOCK_ABI=0 is a test seam: it makes fluzo-tool behave as on a
kernel without Landlock (every command refused with sandbox_unavailable).
Other values are ignored, so it can never make the sandbox weaker.`},
		{Title: "Consent", Body: `fluzo-tool contacts no model, Laya or telemetry endpoint and keeps no
consent (git_push reaches a git remote only as policy allows). Endpoint
consent is the owner's: before fluzo-agent (or fluzo) starts fluzo-tool
for a task it checks that the user consented to exactly this
configuration — the model, Laya and OTLP destinations, standing grants,
the environment handed to commands (tools.shell.inherit_env, tools.shell.env)
and tools.backend, the command that starts a remote fluzo-tool — and
without it stops with configuration_required (exit 3) before anything runs.
fluzo-admit consent show, grant and revoke review, record and forget it
(see fluzo-admit(1)); each grant and revoke is also a consent.granted or
consent.revoked event in the workspace store. Commands fluzo-tool runs get
no TCP unless --sandbox-network allow.`},
		{Title: "Processes", Body: `exec runs argv[0] found on the child's PATH (absolute entries only) without a
shell; a failed spawn is reported (executable_not_found, spawn_failed) and never
retried through /bin/sh. shell runs /bin/sh -c. Each child starts a new session
and process group with stdin from /dev/null and no controlling terminal. Each of
stdout and stderr keeps its first and last --capture-limit/2 bytes, with a
marker and the total byte count; the pipes are drained to the end.

When the leader exits, remaining members of its group, its session and its
descendants get SIGTERM, the grace period, then SIGKILL. A sandboxed command
is the child of its PID namespace's init, so grandchildren that double-fork
into a new session stay in the namespace and are stopped too; unsandboxed
(--sandbox off), fluzo-tool is a child subreaper and adopts them. The result reports exit_code or signal, duration_ms,
timed_out, cancelled, killed, truncation flags, the processes that outlived the
leader and were stopped (ended: pid and command) and any process whose end
could not be confirmed (unconfirmed). A timeout (timeout_seconds, default 120; the
caller caps it by its remaining budget) sends SIGTERM, then SIGKILL after the
grace period.`},
		{Title: "Environment", Body: `Children get PATH (absolute entries only), HOME, USER, LOGNAME, LANG, LANGUAGE,
TZ and LC_* from fluzo-tool's environment, TERM=dumb, TMPDIR set to the
server's private temporary directory, the values of
--env, the variables named by --inherit-env, and the request's env. Credentials
(*_KEY, *_TOKEN, *_SECRET, *PASSWORD*, AWS_*, OTEL_EXPORTER_OTLP_*, SSH_AUTH_SOCK,
FLUZO_* ...) are never inherited; BASH_ENV, ENV and LD_* are refused even when
set explicitly. fluzo-agent starts fluzo-tool itself without provider and
credential variables, and fluzo-tool marks itself non-dumpable, so a command
reading /proc/$PPID/environ finds no key.

Children also get, when set, the variables toolchains use to find themselves
and their caches, so that a toolchain installed outside HOME (as official Rust
and Go images do) works without configuration: RUSTUP_HOME, RUSTUP_TOOLCHAIN,
CARGO_HOME, CARGO_TARGET_DIR (Rust); GOROOT, GOPATH, GOBIN, GOCACHE,
GOMODCACHE, GOFLAGS, GOTOOLCHAIN (Go); JAVA_HOME; PYTHONPATH, VIRTUAL_ENV,
PYENV_ROOT, CONDA_PREFIX (Python); NODE_PATH, NVM_DIR, PNPM_HOME,
npm_config_cache, npm_config_prefix (JavaScript); GEM_HOME, GEM_PATH, DOTNET_ROOT
and XDG_CACHE_HOME. They name directories and build options, never
credentials: proxy and registry URLs (GOPROXY, npm_config_registry), which can
carry a password, are passed only through --inherit-env or --env.

Git runs with GIT_TERMINAL_PROMPT=0, GIT_OPTIONAL_LOCKS=0, GIT_CONFIG_NOSYSTEM=1
and configuration overrides that disable fsmonitor, pagers, external diff,
textconv, hooks, filter drivers, credential helpers, editors and signing.
Submodule work trees are not inspected. In repositories with filter drivers
(Git LFS, for example) status and diff compare unfiltered content, and git_add
refuses with helper_required rather than stage unfiltered files; stage through
the shell tool, which policy reviews as a process.`},
		{Title: "Files", Body: `${XDG_CONFIG_HOME:-~/.config}/fluzo/auth.toml
  the user's credential file; protected from every tool.`},
		{Title: "Examples", Body: `Read a file:

  fluzo-tool call view --root . --args '{"path":"README.md"}'

Run a program through the server:

  echo '{"v":1,"id":"1","tool":"exec","args":{"argv":["go","version"]}}' | fluzo-tool serve --root .

Use a remote machine as the backend:

  ssh build-host fluzo-tool serve --root /src/project

Record a baseline and later separate the task's changes:

  fluzo-tool baseline --root . > base.json
  fluzo-tool diff --root . --baseline base.json --touched src/main.go`},
	}
}
