// Command floor measures, for scripts/bench agent, the process CPU that
// the I/O a durable turn is required to do costs on this machine, with
// nothing of Fluzo in it: two fsynced SQLite commits in WAL mode with
// synchronous=FULL through the same driver (a tool call's intent and
// outcome; a turn's request shares them), one streamed chat completion
// from the simulator through net/http, and one line sent to a child
// process and read back (the tool server's round trip). It runs with one
// P and fluzo-agent's timer slack (lib/timerslack/sysmon), as a headless
// fluzo-agent does. Its figures are the floor under the
// agent's own CPU per turn: what the agent spends above them is its own.
//
// Usage: floor BASE_URL TURNS
//
// It prints one JSON object: p50 and p99 of the whole turn and of each
// part, in microseconds. Measured, never asserted.
package main

import (
	"bufio"
	"bytes"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/josecorral/fluzo/lib/timerslack/sysmon"
	_ "github.com/mattn/go-sqlite3"
	"golang.org/x/sys/unix"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: floor BASE_URL TURNS")
		os.Exit(2)
	}
	turns, err := strconv.Atoi(os.Args[2])
	if err != nil || turns < 1 {
		fmt.Fprintln(os.Stderr, "floor: TURNS must be a positive number")
		os.Exit(2)
	}
	if err := withAgentSlack(); err != nil {
		fmt.Fprintln(os.Stderr, "floor:", err)
		os.Exit(1)
	}
	runtime.GOMAXPROCS(1)
	out, err := measure(os.Args[1], turns)
	if err != nil {
		fmt.Fprintln(os.Stderr, "floor:", err)
		os.Exit(1)
	}
	json.NewEncoder(os.Stdout).Encode(out)
}

// parts are the measured pieces of one turn, in microseconds of process
// CPU, one entry per turn.
type parts struct{ turn, commits, chat, child []float64 }

func measure(base string, turns int) (map[string]float64, error) {
	dir, err := os.MkdirTemp("", "fluzo-floor-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	db, err := openDB(filepath.Join(dir, "floor.sqlite3"))
	if err != nil {
		return nil, err
	}
	defer db.Close()
	child, err := startEcho()
	if err != nil {
		return nil, err
	}
	defer child.close()
	body := []byte(`{"model":"sim","stream":true,"messages":[{"role":"system","content":"floor"},{"role":"user","content":"` + strings.Repeat("x", 512) + `"}]}`)
	row := strings.Repeat("r", 512)
	var p parts
	for i := 0; i < turns; i++ {
		t0 := cpu()
		if err := chat(base, body); err != nil {
			return nil, err
		}
		t1 := cpu()
		if err := commit(db, i, "intent", row); err != nil {
			return nil, err
		}
		t2 := cpu()
		if err := child.roundTrip(row); err != nil {
			return nil, err
		}
		t3 := cpu()
		if err := commit(db, i, "outcome", row); err != nil {
			return nil, err
		}
		t4 := cpu()
		p.turn = append(p.turn, us(t4-t0))
		p.chat = append(p.chat, us(t1-t0))
		p.commits = append(p.commits, us(t2-t1+t4-t3))
		p.child = append(p.child, us(t3-t2))
	}
	out := map[string]float64{"turns": float64(turns)}
	for name, xs := range map[string][]float64{"turn": p.turn, "commits": p.commits, "chat": p.chat, "child": p.child} {
		slices.Sort(xs)
		out[name+"_p50_us"] = xs[(len(xs)-1)/2]
		out[name+"_p99_us"] = xs[(len(xs)-1)*99/100]
	}
	return out, nil
}

// withAgentSlack gives this process fluzo-agent's timer slack. A thread
// inherits its creator's slack and the runtime's sysmon exists before
// main runs, so the process executes itself again from a thread that has
// it; the new image's threads all inherit it.
func withAgentSlack() error {
	runtime.LockOSThread()
	cur, err := unix.PrctlRetInt(unix.PR_GET_TIMERSLACK, 0, 0, 0, 0)
	if err != nil || cur == sysmon.Slack {
		runtime.UnlockOSThread()
		return err
	}
	if err := unix.Prctl(unix.PR_SET_TIMERSLACK, sysmon.Slack, 0, 0, 0); err != nil {
		return err
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}
	return syscall.Exec(self, os.Args, os.Environ())
}

func openDB(path string) (*sql.DB, error) {
	db, err := sql.Open("sqlite3", "file:"+path+"?_journal_mode=WAL&_synchronous=FULL&_txlock=immediate")
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1)
	_, err = db.Exec(`CREATE TABLE records (pos INTEGER PRIMARY KEY, turn INTEGER, kind TEXT, data TEXT);
		CREATE INDEX records_turn ON records(turn, pos)`)
	return db, err
}

// commit is one durable transaction of one small record.
func commit(db *sql.DB, turn int, kind, data string) error {
	tx, err := db.Begin()
	if err != nil {
		return err
	}
	if _, err := tx.Exec(`INSERT INTO records(turn, kind, data) VALUES (?, ?, ?)`, turn, kind, data); err != nil {
		tx.Rollback()
		return err
	}
	return tx.Commit()
}

// chat sends one streamed chat completion and reads the answer whole.
func chat(base string, body []byte) error {
	resp, err := http.Post(base+"/chat/completions", "application/json", bytes.NewReader(body))
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("the simulator answered %s", resp.Status)
	}
	_, err = io.Copy(io.Discard, resp.Body)
	return err
}

// echo is a child process that sends back every line it reads.
type echo struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Reader
}

func startEcho() (*echo, error) {
	cmd := exec.Command("cat")
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	return &echo{cmd: cmd, in: in, out: bufio.NewReader(out)}, nil
}

func (e *echo) roundTrip(line string) error {
	if _, err := io.WriteString(e.in, line+"\n"); err != nil {
		return err
	}
	_, err := e.out.ReadString('\n')
	return err
}

func (e *echo) close() {
	e.in.Close()
	e.cmd.Wait()
}

func cpu() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func us(d time.Duration) float64 { return float64(d) / 1e3 }
