package confine

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

const tempChildEnv = "FLUZO_CONFINE_TEMP_CHILD"

// TestTempWriterChild is the writer process the kill tests start (it does
// nothing in a normal run): it replaces one file and, at the requested
// stage of its temporary file's life, says so and waits to be killed.
func TestTempWriterChild(t *testing.T) {
	spec := os.Getenv(tempChildEnv)
	if spec == "" {
		return
	}
	parts := strings.SplitN(spec, "|", 4) // stage|anon|named|ws|file
	stage, mode, ws, file := parts[0], parts[1], parts[2], parts[3]
	anonymousTemps = mode == "anon"
	tempStage = func(s string) {
		if s == stage {
			os.Stdout.WriteString("at " + s + "\n")
			select {}
		}
	}
	r, err := Open(ws, "")
	must(t, err)
	tg, err := r.Locate(file, false)
	must(t, err)
	must(t, tg.Replace([]byte(strings.Repeat("after\n", 50000))))
	t.Fatal("the writer finished instead of stopping at stage " + stage)
}

// startWriter runs TestTempWriterChild stopped at stage and returns it
// once it got there.
func startWriter(t *testing.T, stage, mode, ws, file string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestTempWriterChild$")
	cmd.Env = append(os.Environ(), tempChildEnv+"="+strings.Join([]string{stage, mode, ws, file}, "|"))
	out, err := cmd.StdoutPipe()
	must(t, err)
	must(t, cmd.Start())
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	line, _ := bufio.NewReader(out).ReadString('\n')
	if line != "at "+stage+"\n" {
		t.Fatalf("writer did not reach %s: %q", stage, line)
	}
	return cmd
}

func killWriter(cmd *exec.Cmd) {
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
}

func tempWorkspace(t *testing.T) (string, *Root) {
	t.Helper()
	ws := t.TempDir()
	must(t, os.WriteFile(filepath.Join(ws, "old.txt"), []byte("before\n"), 0o644))
	git := exec.Command("git", "init", "-q", ws)
	if out, err := git.CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out)
	}
	r, err := Open(ws, "")
	must(t, err)
	t.Cleanup(func() { r.Close() })
	return ws, r
}

func reserved(t *testing.T, ws string) []string {
	t.Helper()
	ents, err := os.ReadDir(ws)
	must(t, err)
	var out []string
	for _, e := range ents {
		if IsTemp(e.Name()) {
			out = append(out, e.Name())
		}
	}
	return out
}

func gitStatus(t *testing.T, ws string) string {
	t.Helper()
	out, err := exec.Command("git", "-C", ws, "status", "--porcelain", "--untracked-files=all").CombinedOutput()
	must(t, err)
	return string(out)
}

// A writer killed while it writes leaves nothing that ls or git status
// can see: the content is in an unnamed inode until the rename.
func TestKilledWriteLeavesNoVisibleTemp(t *testing.T) {
	for _, file := range []string{"old.txt", "new.txt"} {
		t.Run(file, func(t *testing.T) {
			ws, _ := tempWorkspace(t)
			killWriter(startWriter(t, "written", "anon", ws, file))
			if left := reserved(t, ws); len(left) > 0 {
				t.Fatalf("a killed write left %v in the workspace", left)
			}
			if st := gitStatus(t, ws); strings.Contains(st, TempPrefix) {
				t.Fatalf("git status shows a temporary file:\n%s", st)
			}
			if b, _ := os.ReadFile(filepath.Join(ws, "old.txt")); string(b) != "before\n" {
				t.Fatalf("old.txt = %q, want its before version", b)
			}
		})
	}
}

// A name a dead writer left (killed in the instant before its rename, or
// anywhere on a file system without O_TMPFILE) is removed by the very
// next sweep: no waiting for an age.
func TestDeadWritersTempIsRemovedAtOnce(t *testing.T) {
	for _, c := range []struct{ stage, mode string }{{"named", "anon"}, {"written", "named"}, {"created", "named"}} {
		t.Run(c.mode+"/"+c.stage, func(t *testing.T) {
			ws, r := tempWorkspace(t)
			killWriter(startWriter(t, c.stage, c.mode, ws, "old.txt"))
			left := reserved(t, ws)
			if len(left) != 1 {
				t.Fatalf("want the one temporary name the writer made, have %v", left)
			}
			if !r.RemoveTemp(left[0]) {
				t.Fatalf("RemoveTemp kept %s although its writer is dead", left[0])
			}
			if st := gitStatus(t, ws); st != "?? old.txt\n" {
				t.Fatalf("git status after the sweep:\n%s", st)
			}
		})
	}
}

// A live writer's temporary file is never removed: locked, or (in the
// instant between its create and its lock) stamped with a live writer.
func TestLiveWritersTempIsKept(t *testing.T) {
	for _, c := range []struct{ stage, mode string }{{"named", "anon"}, {"created", "named"}, {"written", "named"}} {
		t.Run(c.mode+"/"+c.stage, func(t *testing.T) {
			ws, r := tempWorkspace(t)
			w := startWriter(t, c.stage, c.mode, ws, "old.txt")
			left := reserved(t, ws)
			if len(left) != 1 {
				t.Fatalf("want the writer's temporary name, have %v", left)
			}
			if r.RemoveTemp(left[0]) {
				t.Fatalf("RemoveTemp removed %s while its writer is alive", left[0])
			}
			killWriter(w)
			if !r.RemoveTemp(left[0]) {
				t.Fatalf("RemoveTemp kept %s after its writer died", left[0])
			}
		})
	}
}

// A stamp naming a live PID that started at another time belongs to a
// dead writer whose PID was reused.
func TestWriterStampSurvivesPIDReuse(t *testing.T) {
	self := os.Getpid()
	start := startTime(self)
	if start == 0 {
		t.Fatal("no start time for this process in /proc")
	}
	for name, want := range map[string]bool{
		TempPrefix + writerStamp() + "-ab":                                              false,
		TempPrefix + strconv.Itoa(self) + "." + strconv.FormatUint(start+1, 10) + "-ab": true,
	} {
		gone, ok := writerGone(name)
		if !ok || gone != want {
			t.Errorf("writerGone(%s) = %v, %v; want %v, true", name, gone, ok, want)
		}
	}
	if _, ok := writerGone(TempPrefix + "0badc0de"); ok {
		t.Error("an unstamped legacy name parsed as stamped")
	}
}
