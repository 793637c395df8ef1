package testscripts

import (
	"bufio"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

func init() { register("port-session", portSession) }

// port-session SCRIPT OUT drives 'fluzo-agent serve' interactively. Each
// SCRIPT line is "send JSON" (written to the port's stdin, with $NAME
// replaced by values captured earlier), "expect REGEXP" (waits up to a
// minute for an output line matching it), "capture NAME REGEXP" (like
// expect; the first group becomes $NAME) or "close" (ends stdin). Every
// output line is written to OUT for later checks; the session must end
// with the port exiting 0.
func portSession(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: port-session SCRIPT OUT")
	}
	bin := ""
	for _, dir := range filepath.SplitList(ts.Getenv("PATH")) {
		if fi, err := os.Stat(filepath.Join(dir, "fluzo-agent")); err == nil && !fi.IsDir() {
			bin = filepath.Join(dir, "fluzo-agent")
			break
		}
	}
	if bin == "" {
		ts.Fatalf("port-session: fluzo-agent is not on the script's PATH")
	}
	cmd := exec.Command(bin, "serve")
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
	lines := make(chan string, 1024)
	go func() {
		sc := bufio.NewScanner(io.TeeReader(stdout, out))
		sc.Buffer(make([]byte, 64<<10), 8<<20)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	vars := map[string]string{}
	for n, step := range strings.Split(strings.TrimSpace(ts.ReadFile(args[0])), "\n") {
		verb, rest, _ := strings.Cut(strings.TrimSpace(step), " ")
		switch verb {
		case "send":
			for k, v := range vars {
				rest = strings.ReplaceAll(rest, "$"+k, v)
			}
			_, err := io.WriteString(stdin, rest+"\n")
			ts.Check(err)
		case "expect", "capture":
			name, pattern := "", rest
			if verb == "capture" {
				name, pattern, _ = strings.Cut(rest, " ")
			}
			re := regexp.MustCompile(pattern)
			if m := awaitLine(lines, re); m == nil {
				cmd.Process.Kill()
				cmd.Wait()
				seen, _ := os.ReadFile(ts.MkAbs(args[1]))
				ts.Fatalf("port-session line %d: no output matched %q; stderr:\n%s\noutput:\n%s", n+1, pattern, stderr.String(), seen)
			} else if name != "" {
				vars[name] = m[1]
			}
		case "close":
			stdin.Close()
		default:
			ts.Fatalf("port-session line %d: unknown step %q", n+1, verb)
		}
	}
	stdin.Close()
	for range lines {
	}
	if err := cmd.Wait(); err != nil {
		ts.Fatalf("fluzo-agent serve: %v", err)
	}
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

func portEnv(ts *testscript.TestScript) []string {
	var env []string
	for _, k := range []string{"PATH", "HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_RUNTIME_DIR", "GIT_CONFIG_NOSYSTEM", "GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL", "TMPDIR"} {
		env = append(env, k+"="+ts.Getenv(k))
	}
	return env
}
