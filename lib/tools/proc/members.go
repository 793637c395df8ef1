package proc

import (
	"os"

	"golang.org/x/sys/unix"
	"strconv"
	"strings"
)

// procInfo is what /proc/PID/stat says about one process.
type procInfo struct {
	pid, ppid, pgrp, sid int
	state                byte
	comm                 string
}

func readStat(pid int) (procInfo, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return procInfo{}, false
	}
	s := string(b)
	open, close := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
	if open < 0 || close < open || close+2 >= len(s) {
		return procInfo{}, false
	}
	f := strings.Fields(s[close+2:])
	if len(f) < 4 {
		return procInfo{}, false
	}
	info := procInfo{pid: pid, comm: s[open+1 : close], state: f[0][0]}
	info.ppid, _ = strconv.Atoi(f[1])
	info.pgrp, _ = strconv.Atoi(f[2])
	info.sid, _ = strconv.Atoi(f[3])
	return info, true
}

// members lists the live processes that belong to the child started as
// leader: its process group, its session, and any process descending from
// it (which catches a descendant that moved to a new group). With adopt,
// processes reparented to fluzo-tool (a child subreaper) other than the
// leader count as the child's orphans, with their descendants: callers set
// it only while this child is the server's sole process. Zombies are dead
// and not listed; adopted ones are reaped.
func members(leader int, adopt bool) []procInfo {
	all := snapshot()
	roots := []int{leader}
	if adopt {
		self := os.Getpid()
		for pid, info := range all {
			if info.ppid == self && pid != leader && !isOwnHelper(pid) {
				if info.state == 'Z' {
					reap(pid)
					continue
				}
				roots = append(roots, pid)
			}
		}
	}
	var out []procInfo
	for pid, info := range all {
		if info.state == 'Z' || info.state == 'X' {
			continue
		}
		if info.pgrp == leader || info.sid == leader || descendsAny(all, pid, roots) {
			out = append(out, info)
		}
	}
	return out
}

func descendsAny(all map[int]procInfo, pid int, roots []int) bool {
	for _, r := range roots {
		if descends(all, pid, r) {
			return true
		}
	}
	return false
}

func descends(all map[int]procInfo, pid, ancestor int) bool {
	for i := 0; i < 512 && pid > 1; i++ {
		if pid == ancestor {
			return true
		}
		info, ok := all[pid]
		if !ok {
			return false
		}
		pid = info.ppid
	}
	return false
}

// reap collects an adopted orphan that has exited, so zombies do not pile
// up under a subreaper.
func reap(pid int) {
	var ws unix.WaitStatus
	unix.Wait4(pid, &ws, unix.WNOHANG, nil)
}
