package chaos

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

type procInfo struct {
	pid, ppid int
	argv      []string
	cwd       string
}

// procs reads the process table from /proc.
func procs() []procInfo {
	entries, _ := os.ReadDir("/proc")
	var out []procInfo
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// The command name may hold spaces and parentheses: fields
		// start after the last ')'.
		s := string(stat)
		fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		if len(fields) < 2 || fields[0] == "Z" {
			continue
		}
		ppid, _ := strconv.Atoi(fields[1])
		b, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		cwd, _ := os.Readlink(filepath.Join("/proc", e.Name(), "cwd"))
		out = append(out, procInfo{pid: pid, ppid: ppid, argv: strings.Split(strings.TrimSuffix(string(b), "\x00"), "\x00"), cwd: cwd})
	}
	return out
}

// toolChild is the live "fluzo-tool serve" whose parent is agent (0 when none).
func toolChild(agent int) int {
	for _, p := range procs() {
		if p.ppid == agent && len(p.argv) >= 2 && filepath.Base(p.argv[0]) == "fluzo-tool" && p.argv[1] == "serve" {
			return p.pid
		}
	}
	return 0
}

// killTree stops root and then every descendant (so nothing forks past
// the walk), then SIGKILLs them all: the whole tree dies at one moment,
// including commands in their own process groups.
func killTree(root int) {
	seen := map[int]bool{root: true}
	_ = syscall.Kill(root, syscall.SIGSTOP)
	for changed := true; changed; {
		changed = false
		for _, p := range procs() {
			if seen[p.ppid] && !seen[p.pid] {
				seen[p.pid] = true
				_ = syscall.Kill(p.pid, syscall.SIGSTOP)
				changed = true
			}
		}
	}
	for pid := range seen {
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
}

// survivors lists live processes whose working directory is in ws.
func survivors(ws string) []procInfo {
	var out []procInfo
	for _, p := range procs() {
		if p.cwd == ws || strings.HasPrefix(p.cwd, ws+"/") {
			out = append(out, p)
		}
	}
	return out
}
