package testscripts

import (
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

func init() {
	register("sshd-start", sshdStart)
	register("kill-ssh-backend", killSSHBackend)
	register("wait-no-tool-backend", waitNoToolBackend)
	register("ssh-backend", sshBackend)
	register("wait-gone", waitGone)
}

// wait-gone PIDFILE waits (up to a minute) until the process whose pid
// the file holds has exited (a zombie counts as gone): a remote process
// ends once its fluzo-tool notices, not at a moment this script knows.
// The pid is found as gone finds it (liveInnerPID): a sandboxed command
// wrote the pid it has in its own PID namespace.
func waitGone(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: wait-gone PIDFILE")
	}
	pid := strings.TrimSpace(ts.ReadFile(args[0]))
	for i := 0; i < 600; i++ {
		if liveInnerPID(pid, ts.Getenv("WORK")) == "" {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	ts.Fatalf("process %s still runs a minute later", pid)
}

// ssh-backend VAR ROOT [NAME=VALUE...] sets VAR to the tool backend
// command, as a JSON argv array, that reaches the fluzo-tool behind
// sshd-start's sshd with root ROOT (made absolute), the NAMEs set in its
// environment first ("env NAME=VALUE"): use it as --backend $VAR or
// tools.backend=$VAR.
//
// With -hostname NAME the remote fluzo-tool runs in a UTS namespace of
// its own named NAME (unshare --uts, which needs root), so that the
// remote host differs from the owner's as it would on another machine.
func sshBackend(ts *testscript.TestScript, neg bool, args []string) {
	hostname := ""
	if len(args) > 1 && args[0] == "-hostname" {
		hostname, args = args[1], args[2:]
	}
	if neg || len(args) < 2 || ts.Getenv("SSH_CONFIG") == "" {
		ts.Fatalf("usage: ssh-backend [-hostname NAME] VAR ROOT [NAME=VALUE...] (after sshd-start)")
	}
	tool := ts.Getenv("REMOTE_TOOL")
	if hostname != "" {
		if os.Geteuid() != 0 {
			ts.Fatalf("ssh-backend -hostname needs root (unshare --uts): guard the line with [root]")
		}
		tool = filepath.Join(filepath.Dir(tool), "fluzo-tool-remote-"+hostname)
		script := "#!/bin/sh\nexec unshare --uts sh -c 'hostname \"$1\" && shift && exec \"$@\"' sh " +
			shellQuote(hostname) + " " + shellQuote(ts.Getenv("REMOTE_TOOL")) + " \"$@\"\n"
		ts.Check(os.WriteFile(tool, []byte(script), 0o755))
	}
	argv := []string{"ssh", "-F", ts.Getenv("SSH_CONFIG"), "-T", ts.Getenv("SSH_HOST")}
	if len(args) > 2 {
		argv = append(append(argv, "env"), args[2:]...)
	}
	argv = append(argv, tool, "serve", "--root", ts.MkAbs(args[1]))
	b, err := json.Marshal(argv)
	ts.Check(err)
	ts.Setenv(args[0], string(b))
}

const sshdMissing = "sshd is not installed (apt-get install openssh-server; ./scripts/test installs it): the remote tool backend tests need a real sshd on 127.0.0.1"

// sshdPath is the sshd binary ("" when there is none).
func sshdPath() string {
	if p, err := exec.LookPath("sshd"); err == nil {
		return p
	}
	if _, err := os.Stat("/usr/sbin/sshd"); err == nil {
		return "/usr/sbin/sshd"
	}
	return ""
}

// sshdInstalled is the [sshd] condition: a script starting with
// "[!sshd] skip" says it is skipped on a machine without sshd or the ssh
// client, but under CI (or FLUZO_REQUIRE_SSHD=1) their absence is an
// error, never a skip.
func sshdInstalled() (bool, error) {
	_, errSSH := exec.LookPath("ssh")
	_, errKeygen := exec.LookPath("ssh-keygen")
	if sshdPath() != "" && errSSH == nil && errKeygen == nil {
		return true, nil
	}
	if os.Getenv("CI") != "" || os.Getenv("FLUZO_REQUIRE_SSHD") == "1" {
		return false, fmt.Errorf("%s", sshdMissing)
	}
	return false, nil
}

// sshd-start runs a real sshd on 127.0.0.1 for this script: temporary
// host and client keys, a temporary sshd_config (UsePAM no, StrictModes
// no, a free port, AuthorizedKeysFile pointing at the client key) and an
// ssh client configuration. It sets $SSH_CONFIG (pass it as "ssh -F"),
// $SSH_HOST (the host alias) and $REMOTE_TOOL: a wrapper that runs the
// built fluzo-tool by its absolute path with this script's toolchain
// environment, as a remote host's profile would. Scripts check [sshd]
// first ("[!sshd] skip 'sshd is not installed'").
func sshdStart(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 0 {
		ts.Fatalf("usage: sshd-start")
	}
	sshd := sshdPath()
	if sshd == "" {
		ts.Fatalf("%s", sshdMissing)
	}
	dir := ts.MkAbs("ssh")
	ts.Check(os.MkdirAll(dir, 0o700))
	for _, key := range []string{"host_key", "client_key"} {
		out, err := exec.Command("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", filepath.Join(dir, key)).CombinedOutput()
		if err != nil {
			ts.Fatalf("ssh-keygen: %v: %s", err, out)
		}
	}
	os.MkdirAll("/run/sshd", 0o755) // privilege separation needs it when run as root
	me, err := user.Current()
	ts.Check(err)
	port := freePort(ts)
	cfg := fmt.Sprintf(`Port %d
ListenAddress 127.0.0.1
HostKey %s/host_key
PidFile %s/sshd.pid
AuthorizedKeysFile %s/client_key.pub
UsePAM no
StrictModes no
PermitRootLogin prohibit-password
PasswordAuthentication no
KbdInteractiveAuthentication no
PubkeyAuthentication yes
AllowUsers %s
LogLevel ERROR
`, port, dir, dir, dir, me.Username)
	ts.Check(os.WriteFile(filepath.Join(dir, "sshd_config"), []byte(cfg), 0o600))
	hostPub, err := os.ReadFile(filepath.Join(dir, "host_key.pub"))
	ts.Check(err)
	ts.Check(os.WriteFile(filepath.Join(dir, "known_hosts"), []byte(fmt.Sprintf("[127.0.0.1]:%d %s", port, hostPub)), 0o600))
	client := fmt.Sprintf(`Host fluzo-test
  HostName 127.0.0.1
  Port %d
  User %s
  IdentityFile %s/client_key
  IdentitiesOnly yes
  UserKnownHostsFile %s/known_hosts
  StrictHostKeyChecking yes
  BatchMode yes
  ControlMaster no
  LogLevel ERROR
`, port, me.Username, dir, dir)
	ts.Check(os.WriteFile(filepath.Join(dir, "config"), []byte(client), 0o600))
	writeRemoteTool(ts, dir)
	logf, err := os.Create(filepath.Join(dir, "sshd.log"))
	ts.Check(err)
	cmd := exec.Command(sshd, "-D", "-e", "-f", filepath.Join(dir, "sshd_config"))
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	ts.Check(cmd.Start())
	ts.Defer(func() {
		cmd.Process.Kill()
		cmd.Wait()
		logf.Close()
	})
	waitListening(ts, port, dir)
	ts.Setenv("SSH_CONFIG", filepath.Join(dir, "config"))
	ts.Setenv("SSH_HOST", "fluzo-test")
	ts.Setenv("REMOTE_TOOL", filepath.Join(dir, "fluzo-tool-remote"))
}

// writeRemoteTool writes the wrapper the ssh command runs: the built
// fluzo-tool by absolute path, with this script's toolchain environment
// (sshd gives a session only its own small one).
func writeRemoteTool(ts *testscript.TestScript, dir string) {
	bin := lookPathIn(ts.Getenv("PATH"), "fluzo-tool")
	if bin == "" {
		ts.Fatalf("sshd-start: the built fluzo-tool is not on the script's PATH")
	}
	bin, _ = filepath.Abs(bin)
	var env []string
	for _, k := range []string{"PATH", "HOME", "CARGO_HOME", "RUSTUP_HOME", "GOCACHE", "GOPATH", "GOMODCACHE", "GOFLAGS", "GOTOOLCHAIN",
		"GIT_CONFIG_NOSYSTEM", "GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME"} {
		if v := ts.Getenv(k); v != "" {
			env = append(env, shellQuote(k+"="+v))
		}
	}
	script := "#!/bin/sh\nexec env " + strings.Join(env, " ") + " " + shellQuote(bin) + " \"$@\"\n"
	ts.Check(os.WriteFile(filepath.Join(dir, "fluzo-tool-remote"), []byte(script), 0o755))
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

func freePort(ts *testscript.TestScript) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	ts.Check(err)
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// waitListening waits (up to a minute) for sshd to accept connections.
func waitListening(ts *testscript.TestScript, port int, dir string) {
	for i := 0; i < 600; i++ {
		if c, err := net.Dial("tcp", "127.0.0.1:"+strconv.Itoa(port)); err == nil {
			c.Close()
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	log, _ := os.ReadFile(filepath.Join(dir, "sshd.log"))
	ts.Fatalf("sshd did not listen on 127.0.0.1:%d within a minute: %s", port, log)
}

// kill-ssh-backend sends SIGKILL to the ssh client this script's agent
// runs as its tool backend (its command line names $WORK), waiting up to
// a minute for one: the connection is lost mid-request.
func killSSHBackend(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 0 {
		ts.Fatalf("usage: kill-ssh-backend")
	}
	work := ts.Getenv("WORK")
	for i := 0; i < 6000; i++ {
		if pid := sshClientPID(work); pid > 0 {
			ts.Check(syscall.Kill(pid, syscall.SIGKILL))
			ts.Logf("killed ssh pid %d", pid)
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	ts.Fatalf("no ssh backend process appeared within a minute")
}

func sshClientPID(work string) int {
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		argv := strings.Split(strings.TrimSuffix(string(b), "\x00"), "\x00")
		if err == nil && len(argv) > 1 && filepath.Base(argv[0]) == "ssh" && strings.Contains(string(b), work) {
			return pid
		}
	}
	return 0
}

// wait-no-tool-backend waits (up to a minute) until no fluzo-tool serve
// of this script runs: none with its working directory inside $WORK (a
// local child) or a root there (a remote one, which sshd starts in the
// user's home). With -running it instead asserts that one runs now, so
// that the wait is known not to be vacuous.
func waitNoToolBackend(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) > 1 || (len(args) == 1 && args[0] != "-running") {
		ts.Fatalf("usage: wait-no-tool-backend [-running]")
	}
	work, _ := filepath.EvalSymlinks(ts.Getenv("WORK"))
	if len(args) == 1 {
		if scriptToolBackend(work) == 0 {
			ts.Fatalf("no fluzo-tool serve of this script runs")
		}
		return
	}
	for i := 0; i < 600; i++ {
		if scriptToolBackend(work) == 0 {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	ts.Fatalf("a fluzo-tool serve of %s still runs a minute later (pid %d)", work, scriptToolBackend(work))
}

// scriptToolBackend finds a fluzo-tool serve of the script in work: by
// its working directory or by an argument (its --root) inside work.
func scriptToolBackend(work string) int {
	if pid := toolBackendPID(work); pid > 0 {
		return pid
	}
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		argv := strings.Split(strings.TrimSuffix(string(b), "\x00"), "\x00")
		if err != nil || len(argv) < 2 || filepath.Base(argv[0]) != "fluzo-tool" || argv[1] != "serve" {
			continue
		}
		if stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat")); err == nil && strings.Contains(string(stat), ") Z ") {
			continue
		}
		for _, a := range argv[2:] {
			if strings.HasPrefix(a, work) {
				return pid
			}
		}
	}
	return 0
}
