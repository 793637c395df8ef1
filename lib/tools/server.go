package tools

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"sync"
	"time"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/tools/confine"
	"github.com/josecorral/fluzo/lib/tools/discover"
	"github.com/josecorral/fluzo/lib/tools/proc"
	"github.com/josecorral/fluzo/lib/tools/sandbox"
)

// MaxLine bounds one request line (a write carries the whole file).
const MaxLine = 96 << 20

// DefaultMaxInFlight bounds the bytes of request lines being served at
// once: room for one maximal write plus ordinary traffic. Each request
// costs a few times its line in memory while it runs (decoded arguments,
// the content written), so this is what bounds the server's memory.
const DefaultMaxInFlight = 128 << 20

// Codes of requests refused for size.
const (
	CodeBusy            core.Code = "busy"
	CodeRequestTooLarge core.Code = "request_too_large"
)

// Options configure a server.
type Options struct {
	// Root is the workspace directory every file tool is confined to.
	Root string
	// AuthFile is the credential file to protect ("" for the default).
	AuthFile string
	// Env is the configured part of child environments.
	Env proc.EnvPolicy
	// Grace is the time between SIGTERM and the stopping report or
	// SIGKILL (default 5 s).
	Grace time.Duration
	// CaptureLimit bounds each captured output stream (default 2 MiB).
	CaptureLimit int
	// ParentEnv is the environment baseline values come from (default
	// os.Environ()).
	ParentEnv []string
	// Subreaper makes this process adopt orphaned descendants of its
	// children, so exec and shell can find and stop grandchildren that
	// started their own session. It changes the whole process; the
	// fluzo-tool binary sets it, embedders usually should not.
	Subreaper bool
	// MaxInFlight bounds the total bytes of request lines in flight
	// (default DefaultMaxInFlight); a request that would pass it is
	// refused with busy, one larger than it with request_too_large.
	MaxInFlight int64
	// Sandbox confines exec and shell children (see lib/tools/sandbox);
	// Launcher is the fluzo-tool binary whose sandbox-exec subcommand
	// enforces it (default: this executable).
	Sandbox  sandbox.Settings
	Launcher string
	// Keeper, when set, tracks every sandboxed command's launcher so the
	// owner's workspace lock outlives the tool tree (see proc.Keeper).
	Keeper *proc.Keeper
}

// Server answers tool requests beneath one root. Reads run concurrently;
// writes, processes and git mutations are serialised.
type Server struct {
	opts Options
	// owner is the parent process at start: when it is gone at shutdown,
	// so is the workspace lock it held, and nothing may keep running.
	owner   int
	root    *confine.Root
	lock    sync.RWMutex
	mu      sync.Mutex
	running map[string]*proc.Process
	active  map[string]bool
	// inFlight is the byte total of the request lines being served.
	inFlight int64
	// early holds cancel/kill received before the request's process ran.
	early   map[string]earlyControl
	closing bool
	// served counts the tool requests handled: settings arrive only
	// with a hello before the first.
	served int
	// rootLock holds the root's session lock a hello took (nil: none).
	rootLock *os.File
	// stopping: shutdown has begun terminating owned groups.
	stopping bool
	wg       sync.WaitGroup
	outMu    sync.Mutex
	out      *json.Encoder
	// The commands' private TMPDIR and whether read-only binds work,
	// both settled on first use.
	tmpOnce sync.Once
	tmpDir  string
	tmpErr  error
	tmpLock *os.File
	binds   sandbox.Binds
}

// NewServer opens the root; it fails closed (confinement_unavailable)
// when the kernel cannot confine path resolution.
func NewServer(opts Options) (*Server, error) {
	if opts.Grace <= 0 {
		opts.Grace = 5 * time.Second
	}
	if opts.ParentEnv == nil {
		opts.ParentEnv = os.Environ()
	}
	if opts.MaxInFlight <= 0 {
		opts.MaxInFlight = DefaultMaxInFlight
	}
	if err := opts.Env.Validate(); err != nil {
		return nil, err
	}
	if err := opts.Sandbox.Validate(); err != nil {
		return nil, err
	}
	if opts.Launcher == "" && opts.Sandbox.Mode == sandbox.ModeLandlock {
		exe, err := os.Executable()
		if err != nil {
			return nil, sandbox.Unavailable("cannot find fluzo-tool's own executable to launch commands with: " + err.Error())
		}
		opts.Launcher = exe
	}
	if opts.Subreaper {
		if err := proc.EnableSubreaper(); err != nil {
			opts.Subreaper = false
		}
		proc.MarkToolTree()
	}
	root, err := confine.Open(opts.Root, opts.AuthFile)
	if err != nil {
		return nil, err
	}
	return &Server{opts: opts, owner: os.Getppid(), root: root, running: map[string]*proc.Process{}, active: map[string]bool{}, early: map[string]earlyControl{}}, nil
}

// Close releases the root handle and removes the commands' private
// temporary directory.
func (s *Server) Close() error {
	if s.rootLock != nil {
		s.rootLock.Close()
	}
	s.opts.Keeper.Close()
	if s.tmpDir != "" {
		os.RemoveAll(s.tmpDir)
		s.tmpLock.Close()
	}
	return s.root.Close()
}

// Serve reads JSONL from in and writes replies to out until in ends or
// ctx is cancelled; then it stops its owned process groups gracefully,
// waits for in-flight requests to answer, and returns.
func (s *Server) Serve(ctx context.Context, in io.Reader, out io.Writer) error {
	// Leftovers are removed beside the first requests, not before them:
	// a live write holds its file's lock and is never touched, and every
	// listing and baseline skips temporary names. Shutdown waits for it.
	s.out = core.NewVerbatimEncoder(out)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	// Its git environment is read now: hello may reconfigure the server
	// while it runs.
	env := s.childEnvOrBaseline()
	s.wg.Add(1)
	go func(ctx context.Context) {
		defer s.wg.Done()
		s.removeTempLeftovers(ctx, env)
		removeStaleTemps()
	}(ctx)
	lines := make(chan []byte)
	readErr := make(chan error, 1)
	go func() {
		rd := bufio.NewReaderSize(in, 64<<10)
		for {
			line, err := readLine(rd)
			// Blank lines are passed on (and skipped below) so that the
			// line numbers in error replies match the caller's file.
			if len(line) > 0 || err == nil {
				select {
				case lines <- line:
				case <-ctx.Done():
					return
				}
			}
			if err != nil {
				readErr <- err
				return
			}
		}
	}()
	var err error
	n := 0
loop:
	for {
		select {
		case line := <-lines:
			n++
			if len(bytes.TrimSpace(line)) > 0 {
				s.dispatch(ctx, n, line)
			}
		case e := <-readErr:
			if !errors.Is(e, io.EOF) {
				err = core.Wrap(e, core.CodeFailed, "reading requests failed")
			}
			break loop
		case <-ctx.Done():
			break loop
		}
	}
	s.shutdown()
	return err
}

// removeTempLeftovers deletes the temporary files of writes interrupted
// by an earlier crash (any server's: a live write holds its file's lock
// and is left alone), so git status and the user no longer see them.
func (s *Server) removeTempLeftovers(ctx context.Context, env []string) {
	for _, rel := range discover.Temps(ctx, s.root, env) {
		s.root.RemoveTemp(rel)
	}
}

func readLine(rd *bufio.Reader) ([]byte, error) {
	var line []byte
	for {
		chunk, isPrefix, err := rd.ReadLine()
		line = append(line, chunk...)
		if len(line) > MaxLine {
			for isPrefix && err == nil {
				_, isPrefix, err = rd.ReadLine()
			}
			return []byte("\x00toolong"), err
		}
		if !isPrefix || err != nil {
			return line, err
		}
	}
}

func (s *Server) write(r Reply) {
	s.outMu.Lock()
	defer s.outMu.Unlock()
	s.out.Encode(r)
}

func (s *Server) dispatch(ctx context.Context, n int, line []byte) {
	if string(line) == "\x00toolong" {
		s.write(errReply("", core.Errorf(core.CodeInvalidRequest, "request line %d exceeds %d bytes", n, MaxLine).WithHint("send smaller writes").With("line", n)))
		return
	}
	var in Incoming
	if err := core.DecodeStrict(line, &in); err != nil {
		// Answer with the request's id when it can be read at all, and
		// name the line so a caller without one can find its mistake.
		var loose struct {
			ID string `json:"id"`
		}
		json.Unmarshal(line, &loose)
		fe := core.AsError(err)
		s.write(errReply(loose.ID, core.Errorf(fe.Code, "request line %d: %s", n, fe.Message).WithHint("%s", fe.Hint).With("line", n)))
		return
	}
	if in.V != core.WireVersion || in.ID == "" {
		s.write(errReply(in.ID, core.Errorf(core.CodeInvalidRequest, "a record needs \"v\":1 and a non-empty \"id\"").
			WithHint(`send {"v":1,"id":"r1","tool":"view","args":{"path":"README.md"}}`)))
		return
	}
	if in.Control != "" {
		s.write(s.control(in))
		return
	}
	s.mu.Lock()
	if s.active[in.ID] || s.closing {
		s.mu.Unlock()
		code, msg := core.CodeInvalidRequest, "request id "+in.ID+" is already in flight"
		if s.closing {
			code, msg = CodeShuttingDown, "the server is shutting down"
		}
		s.write(errReply(in.ID, core.Errorf(code, "%s", msg).WithHint("use a new id per request")))
		return
	}
	size := int64(len(line))
	if err := s.admitBytes(size); err != nil {
		s.mu.Unlock()
		s.write(errReply(in.ID, err))
		return
	}
	s.active[in.ID] = true
	s.inFlight += size
	s.wg.Add(1)
	s.mu.Unlock()
	go func() {
		defer s.wg.Done()
		reply := s.Handle(ctx, Request{V: in.V, ID: in.ID, Tool: in.Tool, Query: in.Query, Args: in.Args, MaxSeconds: in.MaxSeconds})
		s.mu.Lock()
		s.inFlight -= size
		delete(s.active, in.ID)
		delete(s.early, in.ID)
		s.mu.Unlock()
		s.write(reply)
	}()
}

// admitBytes refuses a request line that would take the in-flight total
// past the limit (s.mu held). Refusing, rather than waiting, keeps the
// request reader free to see cancel and kill controls.
func (s *Server) admitBytes(size int64) error {
	limit := s.opts.MaxInFlight
	switch {
	case size > limit:
		return core.Errorf(CodeRequestTooLarge, "the request is %d bytes; the server accepts at most %d bytes of requests at once", size, limit).
			WithHint("send a smaller request (write large files in parts, or with a process tool)").
			With("size", size).With("limit", limit)
	case s.inFlight+size > limit:
		return core.Errorf(CodeBusy, "the request is %d bytes and %d bytes of requests are in flight; the limit is %d bytes", size, s.inFlight, limit).
			WithHint("retry after an earlier request has answered").
			With("size", size).With("in_flight", s.inFlight).With("limit", limit)
	}
	return nil
}

// Handle runs one tool request and returns its reply.
func (s *Server) Handle(ctx context.Context, req Request) Reply {
	if req.Query != "" {
		return s.handleQuery(ctx, req)
	}
	s.mu.Lock()
	s.served++
	s.mu.Unlock()
	t, ok := toolByName[req.Tool]
	if !ok {
		return errReply(req.ID, core.Errorf(CodeUnknownTool, "%q is not a fluzo-tool tool", req.Tool).
			WithHint("see 'fluzo-tool schema' for the tools and their arguments"))
	}
	if len(req.Args) == 0 {
		req.Args = json.RawMessage("{}")
	}
	if t.exclusive {
		s.lock.Lock()
		defer s.lock.Unlock()
	} else {
		s.lock.RLock()
		defer s.lock.RUnlock()
	}
	if req.MaxSeconds < 0 {
		return errReply(req.ID, core.Errorf(core.CodeInvalidRequest, "max_seconds cannot be negative").WithHint("leave it out for no cap"))
	}
	if req.MaxSeconds > 0 {
		ctx = context.WithValue(ctx, maxSecondsKey{}, req.MaxSeconds)
	}
	result, err := t.run(ctx, s, req.ID, req.Args)
	if err != nil {
		return errReply(req.ID, err)
	}
	return okReply(req.ID, result)
}

// shutdown ends the session: requests already in flight get one grace
// period to finish on their own (so "echo REQUEST | fluzo-tool serve"
// answers), then every owned process group gets SIGTERM, another grace
// period, and SIGKILL; every request still writes its result.
func (s *Server) shutdown() {
	s.mu.Lock()
	s.closing = true
	s.mu.Unlock()
	defer s.endStrays()
	finished := make(chan struct{})
	go func() { s.wg.Wait(); close(finished) }()
	if s.graceOrOwnerGone(finished) {
		return
	}
	s.mu.Lock()
	s.stopping = true
	procs := make([]*proc.Process, 0, len(s.running))
	for _, p := range s.running {
		procs = append(procs, p)
	}
	s.mu.Unlock()
	for _, p := range procs {
		p.Terminate()
	}
	stopped := make(chan struct{})
	go func() {
		for anyAlive(procs) {
			time.Sleep(20 * time.Millisecond)
		}
		close(stopped)
	}()
	s.graceOrOwnerGone(stopped)
	for _, p := range procs {
		if len(p.Members()) > 0 {
			p.Kill()
		}
	}
	<-finished
}

// graceOrOwnerGone waits for done (true) or for one grace period — cut
// short when the owner is gone (false). An owner that died has released
// the workspace lock with its last breath, so nothing may go on writing:
// its end of stdin closes before the kernel reparents this process, so
// the check is repeated rather than made once at EOF.
func (s *Server) graceOrOwnerGone(done <-chan struct{}) bool {
	deadline := time.NewTimer(s.opts.Grace)
	defer deadline.Stop()
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-done:
			return true
		case <-deadline.C:
			return false
		case <-tick.C:
			if os.Getppid() != s.owner {
				return false
			}
		}
	}
}

// endStrays ends what is left once every request has answered: processes
// reparented to this subreaper after their request's own clean-up looked
// (a daemon forked by a child that was itself being stopped), so that
// none outlives fluzo-tool.
func (s *Server) endStrays() {
	if s.opts.Subreaper {
		proc.Strays{}.End(s.opts.Grace)
	}
}

func anyAlive(procs []*proc.Process) bool {
	for _, p := range procs {
		if len(p.Members()) > 0 {
			return true
		}
	}
	return false
}

// maxSecondsKey carries a request's max_seconds to the process tools.
type maxSecondsKey struct{}

// effectiveTimeout applies the request's cap to a tool's timeout and says
// whether the cap shortened it.
func effectiveTimeout(ctx context.Context, seconds float64) (float64, bool) {
	if max, ok := ctx.Value(maxSecondsKey{}).(float64); ok && max < seconds {
		return max, true
	}
	return seconds, false
}
