package testscripts

import (
	"bufio"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

func init() { register("port-session", portSession) }

// port-session SCRIPT OUT [SERVE-FLAGS...] drives 'fluzo-agent serve'
// (given those flags) interactively. Each SCRIPT line is one step:
//
//	send JSON            write a command ($NAME replaced by captures, or
//	                     by the script's environment)
//	expect REGEXP        wait up to a minute for an output line matching it
//	capture NAME REGEXP  like expect; group 1 becomes $NAME (also exported
//	                     to the script's environment); NAME,NAME2 takes
//	                     groups 1 and 2
//	drop N               the client loses the next N event lines (a
//	                     simulated gap: they still go to OUT)
//	gap SES LAST         find a seq gap in what the client holds: $SES is
//	                     the session, $LAST the last seq before the gap
//	ledger FILE SESSION  at the end, write the client's events of SESSION
//	                     (live ones and those re-paged by events or
//	                     subscribe acks) as "seq id type" lines, seq order
//	killed               the port is expected to die by a signal
//	signal NAME          send the port SIGTERM, SIGINT or SIGHUP
//	sendlong N           write one N-byte line (over the port's limit)
//	close                end stdin
//
// Every output line is written to OUT for later checks; unless "killed"
// was given, the session must end with the port exiting 0.
func portSession(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: port-session SCRIPT OUT [SERVE-FLAGS...]")
	}
	cmd := exec.Command(agentBinary(ts), append([]string{"serve"}, args[2:]...)...)
	cmd.Dir = ts.MkAbs(".")
	cmd.Env = portEnv(ts)
	stdin, err := cmd.StdinPipe()
	ts.Check(err)
	stdout, err := cmd.StdoutPipe()
	ts.Check(err)
	out, err := os.Create(ts.MkAbs(args[1]))
	ts.Check(err)
	defer out.Close()
	var stderr strings.Builder
	cmd.Stderr = &stderr
	ts.Check(cmd.Start())
	client := &portClient{held: map[string]map[int64]string{}}
	lines := make(chan string, 1024)
	go func() {
		sc := bufio.NewScanner(io.TeeReader(stdout, out))
		sc.Buffer(make([]byte, 64<<10), 8<<20)
		for sc.Scan() {
			client.see(sc.Text())
			lines <- sc.Text()
		}
		close(lines)
	}()
	fail := func(format string, a ...any) {
		cmd.Process.Kill()
		cmd.Wait()
		seen, _ := os.ReadFile(ts.MkAbs(args[1]))
		ts.Fatalf(format+"; stderr:\n%s\noutput:\n%s", append(a, stderr.String(), seen)...)
	}
	vars := map[string]string{}
	set := func(k, v string) { vars[k] = v; ts.Setenv(k, v) }
	var ledgers [][2]string
	killed := false
	for n, step := range strings.Split(strings.TrimSpace(ts.ReadFile(args[0])), "\n") {
		verb, rest, _ := strings.Cut(strings.TrimSpace(step), " ")
		for k, v := range vars {
			rest = strings.ReplaceAll(rest, "$"+k, v)
		}
		// Names captured by an earlier session live in the environment.
		rest = scriptVar.ReplaceAllStringFunc(rest, func(m string) string {
			if v := ts.Getenv(m[1:]); v != "" {
				return v
			}
			return m
		})
		switch verb {
		case "send":
			_, err := io.WriteString(stdin, rest+"\n")
			ts.Check(err)
		case "expect", "capture":
			name, pattern := "", rest
			if verb == "capture" {
				name, pattern, _ = strings.Cut(rest, " ")
			}
			re := regexp.MustCompile(pattern)
			if m := awaitLine(lines, re); m == nil {
				fail("port-session line %d: no output matched %q", n+1, pattern)
			} else if name != "" {
				for i, k := range strings.Split(name, ",") {
					if i+1 < len(m) {
						set(k, m[i+1])
					}
				}
			}
		case "drop":
			k, err := strconv.Atoi(rest)
			ts.Check(err)
			client.drop(k)
		case "gap":
			names := strings.Fields(rest)
			if len(names) != 2 {
				ts.Fatalf("port-session line %d: usage: gap SES LAST", n+1)
			}
			ses, last, ok := client.gap()
			if !ok {
				fail("port-session line %d: the client holds no seq gap", n+1)
			}
			set(names[0], ses)
			set(names[1], strconv.FormatInt(last, 10))
		case "ledger":
			file, ses, _ := strings.Cut(rest, " ")
			ledgers = append(ledgers, [2]string{file, ses})
		case "killed":
			killed = true
		case "signal":
			sig, ok := map[string]syscall.Signal{"SIGTERM": syscall.SIGTERM, "SIGINT": syscall.SIGINT, "SIGHUP": syscall.SIGHUP}[rest]
			if !ok {
				ts.Fatalf("port-session line %d: usage: signal SIGTERM|SIGINT|SIGHUP", n+1)
			}
			ts.Check(cmd.Process.Signal(sig))
		case "sendlong":
			k, err := strconv.Atoi(rest)
			ts.Check(err)
			_, err = io.WriteString(stdin, `{"v":1,"id":"long","cmd":"status","pad":"`+strings.Repeat("x", max(k-40, 0))+"\"}\n")
			ts.Check(err)
		case "close":
			stdin.Close()
		default:
			ts.Fatalf("port-session line %d: unknown step %q", n+1, verb)
		}
	}
	stdin.Close()
	// A port that never exits after end of input holds the workspace:
	// that is a failure, not a hang.
	exited := make(chan struct{})
	go func() {
		select {
		case <-exited:
		case <-time.After(time.Minute):
			cmd.Process.Kill()
		}
	}()
	for range lines {
	}
	err = cmd.Wait()
	close(exited)
	switch {
	case killed && err == nil:
		ts.Fatalf("fluzo-agent serve exited 0; it was expected to be killed")
	case !killed && err != nil:
		ts.Fatalf("fluzo-agent serve: %v\nstderr:\n%s", err, stderr.String())
	}
	for _, l := range ledgers {
		ts.Check(os.WriteFile(ts.MkAbs(l[0]), []byte(client.ledger(l[1])), 0o644))
	}
}

var scriptVar = regexp.MustCompile(`\$[A-Z][A-Z0-9_]*`)

func agentBinary(ts *testscript.TestScript) string {
	for _, dir := range filepath.SplitList(ts.Getenv("PATH")) {
		if fi, err := os.Stat(filepath.Join(dir, "fluzo-agent")); err == nil && !fi.IsDir() {
			return filepath.Join(dir, "fluzo-agent")
		}
	}
	ts.Fatalf("port-session: fluzo-agent is not on the script's PATH")
	return ""
}

func awaitLine(lines <-chan string, re *regexp.Regexp) []string {
	timeout := time.After(time.Minute)
	for {
		select {
		case l, ok := <-lines:
			if !ok {
				return nil
			}
			if m := re.FindStringSubmatch(l); m != nil {
				if len(m) == 1 {
					m = append(m, "")
				}
				return m
			}
		case <-timeout:
			return nil
		}
	}
}

// portEnv is the port's environment: the script's isolated dirs, plus
// the fault-injection switches recovery tests stage crashes with.
func portEnv(ts *testscript.TestScript) []string {
	var env []string
	for _, k := range []string{"PATH", "HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_RUNTIME_DIR", "GIT_CONFIG_NOSYSTEM", "GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL", "TMPDIR", "FLUZO_TEST_PROFILE", "FLUZO_FAULT"} {
		env = append(env, k+"="+ts.Getenv(k))
	}
	return env
}
