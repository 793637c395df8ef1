// Package tool is the fluzo-tool command tree: the confined execution
// backend as a command. "serve" answers JSONL tool requests on stdio,
// "call" runs one request, "schema" prints the model-visible schemas,
// "baseline" and "diff" record and compare a workspace's changes.
package tool

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"runtime/debug"
	"strings"
	"time"

	"github.com/josecorral/fluzo/lib/cli/runner"
	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/tools"
	"github.com/josecorral/fluzo/lib/tools/proc"
	"github.com/josecorral/fluzo/lib/tools/sandbox"
	"github.com/urfave/cli/v3"
)

func rootFlag() cli.Flag {
	return &cli.StringFlag{Name: "root", Value: ".", Usage: "workspace root every file tool is confined to"}
}

func serverFlags() []cli.Flag {
	return []cli.Flag{
		rootFlag(),
		&cli.DurationFlag{Name: "grace", Value: 5 * time.Second, Usage: "time between SIGTERM and the stopping report (cancel) or SIGKILL (timeout, shutdown)"},
		&cli.IntFlag{Name: "capture-limit", Value: proc.DefaultCaptureLimit, Usage: "bytes of output kept per stream of a child (head and tail)"},
		&cli.IntFlag{Name: "max-inflight-bytes", Value: tools.DefaultMaxInFlight, Usage: "bytes of request lines served at once; a request past it is refused with busy (or request_too_large when larger by itself)"},
		&cli.StringSliceFlag{Name: "env", Usage: "add NAME=VALUE, a non-secret value, to every child's environment (repeatable)"},
		&cli.StringSliceFlag{Name: "inherit-env", Usage: "pass the parent's variable NAME to children (repeatable; secret-looking names are refused)"},
		&cli.StringFlag{Name: "auth-file", Usage: "credential file to protect (default ${XDG_CONFIG_HOME:-~/.config}/fluzo/auth.toml)"},
		&cli.StringFlag{Name: "sandbox", Value: sandbox.ModeLandlock, Usage: "confinement of exec and shell children: landlock (refused with sandbox_unavailable where the kernel has none) or off (unconfined)"},
		&cli.StringFlag{Name: "sandbox-network", Value: sandbox.NetworkDeny, Usage: "TCP for sandboxed children: deny or allow"},
		&cli.StringSliceFlag{Name: "sandbox-write", Usage: "absolute PATH sandboxed children may also write beneath (repeatable)"},
		&cli.StringSliceFlag{Name: "sandbox-read", Usage: "absolute PATH sandboxed children may also read and execute beneath (repeatable)"},
		&cli.IntFlag{Name: "hold-lock-fd", Hidden: true, Usage: "internal: descriptor FD is the owner's workspace lock, held until every command is gone"},
	}
}

func options(c *cli.Command) (tools.Options, error) {
	set := map[string]string{}
	for _, kv := range c.StringSlice("env") {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return tools.Options{}, runner.Usage(c, "--env %q is not NAME=VALUE", kv)
		}
		set[k] = v
	}
	if m := c.String("sandbox"); m != sandbox.ModeLandlock && m != sandbox.ModeOff {
		return tools.Options{}, runner.Usage(c, "--sandbox must be landlock or off, got %q", m)
	}
	if n := c.String("sandbox-network"); n != sandbox.NetworkDeny && n != sandbox.NetworkAllow {
		return tools.Options{}, runner.Usage(c, "--sandbox-network must be deny or allow, got %q", n)
	}
	if c.Int("max-inflight-bytes") <= 0 {
		return tools.Options{}, runner.Usage(c, "--max-inflight-bytes must be positive, got %d", c.Int("max-inflight-bytes"))
	}
	return tools.Options{
		Root: c.String("root"), AuthFile: c.String("auth-file"), Grace: c.Duration("grace"),
		CaptureLimit: int(c.Int("capture-limit")), MaxInFlight: int64(c.Int("max-inflight-bytes")), Env: proc.EnvPolicy{Set: set, Inherit: c.StringSlice("inherit-env")},
		Subreaper: true,
		Sandbox: sandbox.Settings{Mode: c.String("sandbox"), Network: c.String("sandbox-network"),
			Writable: c.StringSlice("sandbox-write"), Readable: c.StringSlice("sandbox-read")},
	}, nil
}

// Command returns the fluzo-tool command tree.
func Command() *cli.Command {
	return &cli.Command{
		Name:    "fluzo-tool",
		Usage:   "confined execution backend: files, search, edits, processes, git",
		Version: core.Version,
		Description: `fluzo-tool performs every action an agent takes on a workspace and enforces
confinement itself, whoever calls it. File tools resolve paths beneath the root
with openat2(RESOLVE_BENEATH|RESOLVE_NO_MAGICLINKS); .git, .fluzo, .fluzodrive
and the user's auth file are protected; special files and hard-linked writes are
refused. Process tools run children under a Landlock sandbox (writes only in
the workspace minus .git, .fluzo and .fluzodrive, a private TMPDIR and the
build caches; no home directory; no TCP) in their own session with stdin
closed, an explicit environment and bounded output. Git tools run no repository-configured
helper. Policy is the caller's job; confinement is always fluzo-tool's.`,
		Commands: []*cli.Command{serveCommand(), callCommand(), schemaCommand(), baselineCommand(), diffCommand(), sandboxExecCommand(), lockKeeperCommand()},
	}
}

// Main runs fluzo-tool.
func Main() int { return runner.MainUndumpable(Command()) }

func serveCommand() *cli.Command {
	return &cli.Command{
		Name:  "serve",
		Usage: "answer JSONL tool requests on stdin until EOF",
		Description: `Reads one request per line and writes one reply per request: a result record
with "ok":true and the tool's "result", or an error record with "ok":false and
an "error" carrying code, message and hint (see PROTOCOL below). Requests run
concurrently; replies may arrive out of order and carry "re". Control records
{"v":1,"id":"c1","control":"cancel","target":"r1"} and "control":"kill" stop a
running process request. On EOF, requests in flight get one grace period to
finish; then the server stops the process groups it owns (SIGTERM, grace,
SIGKILL), writes every outstanding result, and exits 0 — at once, with no
grace, when its parent (the owner holding the workspace lock) is gone.

No child outlives the server: each dies with it (parent-death signal, even
when fluzo-tool is SIGKILLed), a sandboxed command's daemons die with its PID
namespace, and serve is a child subreaper, so a daemon that an unsandboxed
command double-forks into a session of its own is reparented to it and ended
with the request, or at the latest before serve exits. Every child
serve starts runs with no_new_privs, which all its descendants inherit: no
setuid program gains privileges, and an owner can recognise the tree's
orphans.`,
		Flags: serverFlags(),
		Action: func(ctx context.Context, c *cli.Command) error {
			s, err := newServer(c)
			if err != nil {
				return err
			}
			defer s.Close()
			limitHeap(int64(c.Int("max-inflight-bytes")))
			return s.Serve(ctx, os.Stdin, c.Root().Writer)
		},
	}
}

// heapPerInFlightByte is the soft heap limit per byte of the in-flight
// bound: a write request is held as its line, its decoded arguments and
// the content written, so its live memory is a few times its size.
const heapPerInFlightByte = 4

// limitHeap gives the Go heap a soft limit proportional to the in-flight
// bound (unless GOMEMLIMIT is set), so the garbage of a finished large
// request is collected before the next one is read instead of letting the
// heap double first.
func limitHeap(inFlight int64) {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(inFlight * heapPerInFlightByte)
	}
}

// newServer builds the tool server the flags describe.
func newServer(c *cli.Command) (*tools.Server, error) {
	opts, err := options(c)
	if err != nil {
		return nil, err
	}
	if opts.Keeper, err = startKeeper(c); err != nil {
		return nil, err
	}
	return tools.NewServer(opts)
}

// startKeeper starts the lock keeper for the owner's lock descriptor
// --hold-lock-fd, if given, and closes this process's copy: the owner and
// the keeper hold it.
func startKeeper(c *cli.Command) (*proc.Keeper, error) {
	fd := c.Int("hold-lock-fd")
	if fd <= 0 {
		return nil, nil
	}
	lock := os.NewFile(uintptr(fd), "owner-lock")
	if lock == nil {
		return nil, runner.Usage(c, "--hold-lock-fd %d is not an open descriptor", fd)
	}
	defer lock.Close()
	exe, err := os.Executable()
	if err != nil {
		return nil, core.Wrap(err, core.CodeFailed, "cannot find fluzo-tool's own executable for the lock keeper")
	}
	return proc.StartKeeper(exe, lock)
}

// lockKeeperCommand is the process that holds the owner's workspace lock
// until every command of this server has exited (see proc.Keeper).
// Hidden: only fluzo-tool serve starts it.
func lockKeeperCommand() *cli.Command {
	return &cli.Command{
		Name:            proc.KeeperCommand,
		Hidden:          true,
		SkipFlagParsing: true,
		Usage:           "internal: hold the owner's lock until every command is gone",
		Action: func(ctx context.Context, c *cli.Command) error {
			os.Exit(proc.RunKeeper())
			return nil
		},
	}
}

func callCommand() *cli.Command {
	return &cli.Command{
		Name:      "call",
		Usage:     "run one tool request and print its reply record",
		ArgsUsage: "TOOL",
		Description: `Runs TOOL with the JSON object given by --args beneath --root and prints the
reply record (the same line serve would write). A tool error is printed as the
error record and also reported on stderr, with the exit status of its code.
A process that ran and exited non-zero is a successful call: read exit_code.`,
		Flags: append(serverFlags(), &cli.StringFlag{Name: "args", Value: "{}", Usage: "tool arguments as a JSON object, or - to read them from stdin"}),
		Action: func(ctx context.Context, c *cli.Command) error {
			if c.Args().Len() != 1 {
				return runner.Usage(c, "call needs exactly one TOOL argument (one of %s)", strings.Join(tools.Names(), ", "))
			}
			s, err := newServer(c)
			if err != nil {
				return err
			}
			defer s.Close()
			args := []byte(c.String("args"))
			if c.String("args") == "-" {
				if args, err = io.ReadAll(io.LimitReader(os.Stdin, tools.MaxLine)); err != nil {
					return core.Wrap(err, core.CodeFailed, "cannot read the arguments from stdin")
				}
			}
			reply := s.Handle(ctx, tools.Request{V: core.WireVersion, ID: "call", Tool: c.Args().First(), Args: json.RawMessage(args)})
			enc := json.NewEncoder(c.Root().Writer)
			enc.SetEscapeHTML(false)
			if err := enc.Encode(reply); err != nil {
				return core.Wrap(err, core.CodeFailed, "cannot write the reply")
			}
			if reply.Error != nil {
				return reply.Error
			}
			return nil
		},
	}
}

func schemaCommand() *cli.Command {
	return &cli.Command{
		Name:  "schema",
		Usage: "print the model-visible tool schemas (OpenAI function-tool format)",
		Description: `Prints a JSON array with one {"type":"function","function":{name, description,
parameters}} object per tool, ready to send as the "tools" of a chat request.`,
		Action: func(ctx context.Context, c *cli.Command) error {
			out, err := tools.SchemasJSON()
			if err != nil {
				return core.Wrap(err, core.CodeInternal, "cannot encode the schemas")
			}
			_, err = c.Root().Writer.Write(out)
			return err
		},
	}
}

// sandboxExecCommand is the launcher exec and shell start their children
// through: it confines itself with the plan fluzo-tool computed and then
// becomes the command. Hidden: only fluzo-tool calls it.
func sandboxExecCommand() *cli.Command {
	return &cli.Command{
		Name:            sandbox.LauncherCommand,
		Hidden:          true,
		SkipFlagParsing: true,
		Usage:           "internal: confine this process with a sandbox plan and exec PROGRAM",
		ArgsUsage:       "PLAN PROGRAM [ARG...]",
		Action: func(ctx context.Context, c *cli.Command) error {
			if c.Args().Len() < 2 {
				return runner.Usage(c, "sandbox-exec needs a PLAN and a PROGRAM")
			}
			return sandbox.Launch(c.Args().First(), c.Args().Slice()[1:])
		},
	}
}
