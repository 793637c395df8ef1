package testscripts

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/itchyny/gojq"
	"github.com/rogpeppe/go-internal/testscript"
	"golang.org/x/sys/unix"
)

// Commands for the fluzo-store scripts. They run the real binaries as
// subprocesses with the script's environment and connect them with real
// pipes, so "fluzo-store events | gojq …" is exercised as a user runs it.
func init() {
	register("gojq", cmdGojq)
	register("followevents", cmdFollowEvents)
	register("withlock", cmdWithLock)
	register("corrupt", cmdCorrupt)
}

// scriptEnv lists the variables a subprocess inherits from the script.
var scriptEnv = []string{"PATH", "HOME", "TMPDIR", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_RUNTIME_DIR",
	"GIT_CONFIG_NOSYSTEM", "GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL",
	"FLUZO_REPO", "FLUZO_WORKSPACE"}

// subprocess builds a command for prog as the script would run it.
func subprocess(ts *testscript.TestScript, prog string, args ...string) *exec.Cmd {
	path := prog
	if !strings.Contains(prog, "/") {
		for _, dir := range filepath.SplitList(ts.Getenv("PATH")) {
			if fi, err := os.Stat(filepath.Join(dir, prog)); err == nil && fi.Mode()&0o111 != 0 {
				path = filepath.Join(dir, prog)
				break
			}
		}
	}
	cmd := exec.Command(path, args...)
	cmd.Dir = ts.MkAbs(".")
	for _, k := range scriptEnv {
		if v := ts.Getenv(k); v != "" {
			cmd.Env = append(cmd.Env, k+"="+v)
		}
	}
	return cmd
}

// gojq [-set VAR] FILTER prog args... runs prog and pipes its stdout
// through the gojq library, one JSON value at a time, printing compact
// results (strings raw). With -set, the last result is stored in VAR.
func cmdGojq(ts *testscript.TestScript, neg bool, args []string) {
	setVar := ""
	if len(args) > 1 && args[0] == "-set" {
		setVar, args = args[1], args[2:]
	}
	if neg || len(args) < 2 {
		ts.Fatalf("usage: gojq [-set VAR] FILTER program [args...]")
	}
	stdout := ts.Stdout() // also resets the previous command's output
	query, err := gojq.Parse(args[0])
	ts.Check(err)
	code, err := gojq.Compile(query)
	ts.Check(err)
	cmd := subprocess(ts, args[1], args[2:]...)
	pipe, err := cmd.StdoutPipe()
	ts.Check(err)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	ts.Check(cmd.Start())
	dec := json.NewDecoder(bufio.NewReaderSize(pipe, 64<<10))
	dec.UseNumber()
	var last *string
	for {
		var v any
		if err := dec.Decode(&v); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			ts.Fatalf("gojq: %s produced invalid JSON: %v", args[1], err)
		}
		iter := code.Run(normalizeNumbers(v))
		for {
			out, ok := iter.Next()
			if !ok {
				break
			}
			if err, isErr := out.(error); isErr {
				ts.Fatalf("gojq: %v", err)
			}
			line := render(out)
			last = &line
			fmt.Fprintln(stdout, line)
		}
	}
	if err := cmd.Wait(); err != nil {
		ts.Fatalf("gojq: %s failed: %v\n%s", args[1], err, stderr.String())
	}
	if setVar != "" {
		if last == nil {
			ts.Fatalf("gojq: no result to store in %s", setVar)
		}
		ts.Setenv(setVar, *last)
	}
}

// normalizeNumbers turns json.Number into the int/float values gojq
// expects.
func normalizeNumbers(v any) any {
	switch x := v.(type) {
	case json.Number:
		if i, err := strconv.ParseInt(string(x), 10, 64); err == nil && i >= -1<<53 && i <= 1<<53 {
			return int(i)
		}
		f, _ := x.Float64()
		return f
	case map[string]any:
		for k, e := range x {
			x[k] = normalizeNumbers(e)
		}
	case []any:
		for i, e := range x {
			x[i] = normalizeNumbers(e)
		}
	}
	return v
}

func render(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	b, err := gojq.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// followevents INITIAL FINAL [events flags...] -- trigger args... starts
// "fluzo-store events --follow", waits for INITIAL lines, runs the trigger
// command, waits for FINAL lines in total, interrupts the follower with
// SIGINT and asserts it exits 0. The lines go to stdout.
func cmdFollowEvents(ts *testscript.TestScript, neg bool, args []string) {
	sep := -1
	for i, a := range args {
		if a == "--" {
			sep = i
			break
		}
	}
	if neg || len(args) < 4 || sep < 2 || sep == len(args)-1 {
		ts.Fatalf("usage: followevents INITIAL FINAL [events flags...] -- trigger [args...]")
	}
	stdout := ts.Stdout()
	initial, err1 := strconv.Atoi(args[0])
	final, err2 := strconv.Atoi(args[1])
	if err1 != nil || err2 != nil {
		ts.Fatalf("followevents: INITIAL and FINAL must be numbers")
	}
	follow := subprocess(ts, "fluzo-store", append([]string{"events", "--follow", "--poll", "20ms"}, args[2:sep]...)...)
	pipe, err := follow.StdoutPipe()
	ts.Check(err)
	ts.Check(follow.Start())
	lines := make(chan string)
	go func() {
		sc := bufio.NewScanner(pipe)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	var got []string
	waitFor := func(n int) {
		// A generous bound that only guards against a hung follower; the
		// test asserts what arrives, never how fast.
		deadline := time.After(60 * time.Second)
		for len(got) < n {
			select {
			case l, ok := <-lines:
				if !ok {
					ts.Fatalf("followevents: follower ended after %d lines, want %d", len(got), n)
				}
				got = append(got, l)
			case <-deadline:
				follow.Process.Kill()
				ts.Fatalf("followevents: only %d of %d lines arrived", len(got), n)
			}
		}
	}
	waitFor(initial)
	trigger := subprocess(ts, args[sep+1], args[sep+2:]...)
	if out, err := trigger.CombinedOutput(); err != nil {
		follow.Process.Kill()
		ts.Fatalf("followevents: trigger failed: %v\n%s", err, out)
	}
	waitFor(final)
	ts.Check(follow.Process.Signal(syscall.SIGINT))
	for range lines {
	}
	if err := follow.Wait(); err != nil {
		ts.Fatalf("followevents: follower did not exit cleanly on SIGINT: %v", err)
	}
	for _, l := range got {
		fmt.Fprintln(stdout, l)
	}
}

// withlock FILE command args... holds an exclusive flock on FILE (as the
// workspace owner does) while running another script command.
func cmdWithLock(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) < 2 {
		ts.Fatalf("usage: withlock FILE command [args...]")
	}
	fd, err := unix.Open(ts.MkAbs(args[0]), unix.O_RDWR|unix.O_CREAT|unix.O_CLOEXEC, 0o600)
	ts.Check(err)
	defer unix.Close(fd)
	ts.Check(unix.Flock(fd, unix.LOCK_EX|unix.LOCK_NB))
	defer unix.Flock(fd, unix.LOCK_UN)
	if args[1] == "exec" {
		args = args[1:]
	}
	cmds := Commands()
	if fn, ok := cmds[args[1]]; ok {
		fn(ts, neg, args[2:])
		return
	}
	err = ts.Exec(args[1], args[2:]...)
	if (err != nil) != neg {
		ts.Fatalf("withlock: %s: %v", args[1], err)
	}
}

// corrupt [-tail] FILE overwrites FILE with garbage: every third page from
// the second on (the schema page included), or with -tail only inside the
// last page, which leaves the schema readable but fails integrity checks.
func cmdCorrupt(ts *testscript.TestScript, neg bool, args []string) {
	tail := len(args) == 2 && args[0] == "-tail"
	if tail {
		args = args[1:]
	}
	if neg || len(args) != 1 {
		ts.Fatalf("usage: corrupt [-tail] FILE")
	}
	f, err := os.OpenFile(ts.MkAbs(args[0]), os.O_RDWR, 0)
	ts.Check(err)
	defer f.Close()
	fi, err := f.Stat()
	ts.Check(err)
	const page = 4096
	if tail {
		_, err := f.WriteAt([]byte(strings.Repeat("\xde\xad\xbe\xef", 500)), fi.Size()-page+100)
		ts.Check(err)
	} else {
		junk := []byte(strings.Repeat("\xde\xad\xbe\xef", page/2))
		for off := int64(page); off < fi.Size(); off += 3 * page {
			_, err := f.WriteAt(junk, off)
			ts.Check(err)
		}
	}
	ts.Check(f.Sync())
}
