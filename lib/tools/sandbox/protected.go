package sandbox

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path"
	"sort"

	"github.com/josecorral/fluzo/lib/tools/confine"
	"golang.org/x/sys/unix"
)

// ProtectedChange is a protected path whose identity or content differs
// after a command (or a task) from before it.
type ProtectedChange struct {
	Path string `json:"path"`
	// Change is "created", "deleted", "modified" or "replaced" (a
	// different file or type now has the name).
	Change string `json:"change"`
	What   string `json:"what"`
}

// watchedInside are the paths beneath .git whose content is compared:
// the ones that make git run code or change what it trusts.
var watchedInside = []string{"config", "hooks", "info", "HEAD", "commondir", "gitdir"}

// Watch limits: a hostile command could fill hooks/ with files; beyond
// these the listing is cut and the cut itself is compared.
const (
	maxWatchedEntries = 2000
	maxHashedBytes    = 4 << 20
)

// ProtectedState is the identity and content of the protected paths of
// one workspace at one moment, keyed by root-relative path.
type ProtectedState map[string]string

// CaptureProtected records the protected paths beneath root: each
// root-level protected name's type and identity, and beneath .git the
// content of config, HEAD and every file in hooks/ and info/. .fluzodrive
// is compared by identity only: the runtime itself writes the store there
// while commands run. Nothing is followed through a symlink.
func CaptureProtected(root string) ProtectedState {
	st := ProtectedState{}
	dfd, err := unix.Open(root, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return st
	}
	defer unix.Close(dfd)
	for _, name := range confine.ProtectedNames() {
		kind := describe(dfd, name, name != ".fluzodrive")
		if kind == "" {
			continue
		}
		st[name] = kind
		if name == ".git" && kind[0] == 'd' {
			for _, inside := range watchedInside {
				walk(dfd, path.Join(name, inside), st, 0)
			}
		}
	}
	return st
}

// describe returns "" for a missing name, else its type, identity and
// (for a regular file when hashed) its content hash.
func describe(dfd int, rel string, hashed bool) string {
	var s unix.Stat_t
	if err := unix.Fstatat(dfd, rel, &s, unix.AT_SYMLINK_NOFOLLOW); err != nil {
		return ""
	}
	id := fmt.Sprintf("%d:%d:%o", s.Dev, s.Ino, s.Mode)
	switch s.Mode & unix.S_IFMT {
	case unix.S_IFDIR:
		return "dir " + id
	case unix.S_IFREG:
		if !hashed {
			return "file " + id
		}
		return "file " + id + " " + hashFile(dfd, rel, s.Size)
	case unix.S_IFLNK:
		buf := make([]byte, 4096)
		n, _ := unix.Readlinkat(dfd, rel, buf)
		return "link " + id + " " + string(buf[:n])
	}
	return "special " + id
}

func hashFile(dfd int, rel string, size int64) string {
	if size > maxHashedBytes {
		return fmt.Sprintf("size=%d", size)
	}
	how := &unix.OpenHow{Flags: unix.O_RDONLY | unix.O_NOFOLLOW | unix.O_NONBLOCK | unix.O_CLOEXEC, Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_SYMLINKS}
	fd, err := unix.Openat2(dfd, rel, how)
	if err != nil {
		return "unreadable"
	}
	f := os.NewFile(uintptr(fd), rel)
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, io.LimitReader(f, maxHashedBytes)); err != nil {
		return "unreadable"
	}
	return hex.EncodeToString(h.Sum(nil))
}

// walk records rel and, for a directory, everything beneath it.
func walk(dfd int, rel string, st ProtectedState, depth int) {
	if len(st) >= maxWatchedEntries {
		st["(more)"] = "listing cut"
		return
	}
	kind := describe(dfd, rel, true)
	if kind == "" {
		return
	}
	st[rel] = kind
	if kind[0] != 'd' || depth > 8 {
		return
	}
	how := &unix.OpenHow{Flags: unix.O_RDONLY | unix.O_DIRECTORY | unix.O_NOFOLLOW | unix.O_CLOEXEC, Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_SYMLINKS}
	fd, err := unix.Openat2(dfd, rel, how)
	if err != nil {
		return
	}
	f := os.NewFile(uintptr(fd), rel)
	names, _ := f.Readdirnames(maxWatchedEntries)
	f.Close()
	sort.Strings(names)
	for _, n := range names {
		walk(dfd, path.Join(rel, n), st, depth+1)
	}
}

// CompareProtected lists what changed between two captures, by path.
func CompareProtected(before, after ProtectedState) []ProtectedChange {
	paths := map[string]bool{}
	for p := range before {
		paths[p] = true
	}
	for p := range after {
		paths[p] = true
	}
	var out []ProtectedChange
	for p := range paths {
		b, inB := before[p]
		a, inA := after[p]
		if inB && inA && a == b {
			continue
		}
		// A directory whose mode/identity is unchanged but whose entries
		// changed is reported through the entries; its own line differs
		// only when it was replaced.
		c := ProtectedChange{Path: p, What: whatOf(p)}
		switch {
		case !inB:
			c.Change = "created"
		case !inA:
			c.Change = "deleted"
		case a[:4] != b[:4] || identity(a) != identity(b):
			c.Change = "replaced"
		default:
			c.Change = "modified"
		}
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

// identity is the "dev:ino" part of a description.
func identity(desc string) string {
	var kind, id string
	fmt.Sscan(desc, &kind, &id)
	if i := len(id) - 1; i > 0 {
		for j := i; j >= 0; j-- {
			if id[j] == ':' {
				return id[:j]
			}
		}
	}
	return id
}

func whatOf(p string) string {
	top := p
	for i := 0; i < len(p); i++ {
		if p[i] == '/' {
			top = p[:i]
			break
		}
	}
	return confine.ProtectedWhat(top)
}
