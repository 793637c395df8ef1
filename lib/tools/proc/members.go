package proc

import (
	"os"
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
// it (which catches a descendant that moved to a new group). Zombies are
// dead and not listed.
func members(leader int) []procInfo {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	all := map[int]procInfo{}
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if info, ok := readStat(pid); ok {
			all[pid] = info
		}
	}
	var out []procInfo
	for pid, info := range all {
		if info.state == 'Z' || info.state == 'X' {
			continue
		}
		if info.pgrp == leader || info.sid == leader || descends(all, pid, leader) {
			out = append(out, info)
		}
	}
	return out
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
