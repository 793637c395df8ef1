package port

import (
	"os"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/josecorral/fluzo/lib/core"
)

// Owner names the process that holds a workspace, as serve's
// workspace_busy error reports it.
type Owner struct {
	Instance string
	PID      int
	Since    time.Time // zero: unknown
	Command  string    // "" : unknown (the process is gone or not ours to read)
}

var busyPattern = regexp.MustCompile(`instance (ins_[0-9A-Za-z]+) \(pid ([0-9]+), started ([^)]+)\)`)

// BusyOwner reports who owns the workspace when the port was lost because
// serve refused with workspace_busy. ok is false for any other loss.
func (e *LostError) BusyOwner() (Owner, bool) {
	if e.Code() != core.CodeWorkspaceBusy {
		return Owner{}, false
	}
	var o Owner
	if m := busyPattern.FindStringSubmatch(e.Stderr); m != nil {
		o.Instance = m[1]
		o.PID, _ = strconv.Atoi(m[2])
		o.Since, _ = time.Parse(time.RFC3339, m[3])
	}
	if o.PID > 0 {
		o.Command = commandOf(o.PID)
	}
	return o, true
}

// commandOf reads a process's command line from /proc; empty when the
// process is gone or unreadable.
func commandOf(pid int) string {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
	if err != nil {
		return ""
	}
	return strings.TrimSpace(strings.ReplaceAll(string(b), "\x00", " "))
}
