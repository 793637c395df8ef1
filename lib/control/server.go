package control

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"time"

	"github.com/josecorral/fluzo/lib/core"
	"golang.org/x/sys/unix"
)

// Handler answers one control command. raw is the whole request
// line; the handler decodes its own arguments strictly.
type Handler func(ctx context.Context, raw []byte) (any, error)

// Server is the private control socket of a running owner: other
// terminals reach it with fluzo-agent status, cancel and kill. Only
// connections from the same user are served.
type Server struct {
	path     string
	ln       *net.UnixListener
	handlers map[string]Handler
	wg       sync.WaitGroup
}

// SocketPath is the control socket of the owner of workspace root, under
// ${XDG_RUNTIME_DIR}/fluzo (short, private) or the system temp directory.
func SocketPath(root string) string {
	base := os.Getenv("XDG_RUNTIME_DIR")
	if base == "" {
		base = filepath.Join(os.TempDir(), "fluzo-"+strconv.Itoa(os.Getuid()))
	} else {
		base = filepath.Join(base, "fluzo")
	}
	sum := sha256.Sum256([]byte(root))
	return filepath.Join(base, "agent-"+hex.EncodeToString(sum[:6])+".sock")
}

// Listen opens the socket for root. A stale socket file left by a
// dead owner is replaced: the caller already holds workspace ownership.
func Listen(root string, handlers map[string]Handler) (*Server, error) {
	path := SocketPath(root)
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, core.Wrap(err, core.CodeFailed, "cannot create the control socket directory").WithHint("check XDG_RUNTIME_DIR")
	}
	if err := checkPrivateDir(filepath.Dir(path)); err != nil {
		return nil, err
	}
	os.Remove(path)
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
	if err != nil {
		return nil, core.Wrap(err, core.CodeFailed, "cannot listen on the control socket "+path).WithHint("check XDG_RUNTIME_DIR")
	}
	os.Chmod(path, 0o600)
	s := &Server{path: path, ln: ln, handlers: handlers}
	s.wg.Add(1)
	go s.serve()
	return s, nil
}

// checkPrivateDir refuses a socket directory another user could control:
// under a shared temporary directory a name like fluzo-UID can be created
// first by anyone (a symlink, or a directory they own or can write), and
// whoever controls it can replace the socket.
func checkPrivateDir(dir string) error {
	fi, err := os.Lstat(dir)
	if err != nil {
		return core.Wrap(err, core.CodeFailed, "cannot inspect the control socket directory "+dir)
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !fi.IsDir() || !ok || int(st.Uid) != os.Getuid() || fi.Mode().Perm()&0o077 != 0 {
		return core.Errorf(core.CodePermissionDenied, "the control socket directory %s is not a private directory of this user (%s)", dir, fi.Mode()).
			WithHint("remove it, or set XDG_RUNTIME_DIR to a private directory")
	}
	return nil
}

// Close stops serving and removes the socket.
func (s *Server) Close() error {
	err := s.ln.Close()
	s.wg.Wait()
	os.Remove(s.path)
	return err
}

func (s *Server) serve() {
	defer s.wg.Done()
	for {
		conn, err := s.ln.AcceptUnix()
		if err != nil {
			return
		}
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			defer conn.Close()
			s.handle(conn)
		}()
	}
}

func (s *Server) handle(conn *net.UnixConn) {
	enc := json.NewEncoder(conn)
	if err := checkPeer(conn); err != nil {
		enc.Encode(core.NewErrorRecord("", err))
		return
	}
	conn.SetDeadline(time.Now().Add(30 * time.Second))
	sc := bufio.NewScanner(conn)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		enc.Encode(Dispatch(context.Background(), s.handlers, sc.Bytes()))
	}
}

// checkPeer refuses connections from another user (SO_PEERCRED).
func checkPeer(conn *net.UnixConn) error {
	raw, err := conn.SyscallConn()
	if err != nil {
		return core.Wrap(err, core.CodePermissionDenied, "cannot check the peer of the control connection")
	}
	var cred *unix.Ucred
	var cerr error
	raw.Control(func(fd uintptr) { cred, cerr = unix.GetsockoptUcred(int(fd), unix.SOL_SOCKET, unix.SO_PEERCRED) })
	if cerr != nil || cred == nil || int(cred.Uid) != os.Getuid() {
		return core.Errorf(core.CodePermissionDenied, "the control socket serves only its owner's user").
			WithHint("run the command as the user who started fluzo-agent")
	}
	return nil
}

// Dispatch decodes one command line and runs its handler: one handler per
// command, looked up in a map. The answer is an ack or a typed error.
func Dispatch(ctx context.Context, handlers map[string]Handler, line []byte) any {
	var c struct {
		V   int    `json:"v"`
		ID  string `json:"id"`
		Cmd string `json:"cmd"`
	}
	if err := json.Unmarshal(line, &c); err != nil {
		return core.NewErrorRecord("", core.Errorf(core.CodeInvalidRequest, "the command is not a JSON object").WithHint("send one JSON object per line"))
	}
	if c.V != core.WireVersion {
		return core.NewErrorRecord(c.ID, core.Errorf(core.CodeInvalidRequest, "unsupported command version %d", c.V).WithHint("send \"v\":1"))
	}
	h, ok := handlers[c.Cmd]
	if !ok {
		return core.NewErrorRecord(c.ID, core.Errorf(core.CodeInvalidRequest, "unknown command %q", c.Cmd).WithHint("see fluzo-agent(1) for the commands"))
	}
	data, err := h(ctx, line)
	if err != nil {
		return core.NewErrorRecord(c.ID, err)
	}
	return core.NewAck(c.ID, data)
}
