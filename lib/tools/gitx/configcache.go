package gitx

import (
	"path/filepath"
	"strings"
	"sync"
	"time"

	"golang.org/x/sys/unix"
)

// The key listing runs before every git command, and a task runs dozens:
// listing once per process and reusing the answer while no file it came
// from (or could come from) has changed saves a git process each time.
// Every rule below errs towards listing again.

// racyWindow is how old a configuration file's last change must be for
// its listing to be reused: a file changed again within the filesystem's
// timestamp granularity could keep the same times and size. Well above
// any granularity (Linux's coarse clock ticks at most every 10 ms).
var racyWindow = time.Second

// keyCache holds one listing per directory and environment, and the lock
// that lets only one listing of them run at a time.
var keyCache = struct {
	sync.Mutex
	m       map[string]cachedKeys
	listing map[string]*sync.Mutex
}{m: map[string]cachedKeys{}, listing: map[string]*sync.Mutex{}}

// lockListing takes the listing lock of dir and env; the caller unlocks.
func lockListing(dir string, env []string) (unlock func()) {
	key := cacheKey(dir, env)
	keyCache.Lock()
	mu := keyCache.listing[key]
	if mu == nil {
		mu = &sync.Mutex{}
		keyCache.listing[key] = mu
	}
	keyCache.Unlock()
	mu.Lock()
	return mu.Unlock
}

type cachedKeys struct {
	keys  []string
	files []fileStamp
}

// fileStamp is what a configuration file looked like when it was listed;
// absent files are stamped too, so one that appears is seen.
type fileStamp struct {
	path   string
	absent bool
	dev    uint64
	ino    uint64
	size   int64
	mtime  unix.Timespec
	ctime  unix.Timespec
}

func stamp(path string) fileStamp {
	var st unix.Stat_t
	if err := unix.Stat(path, &st); err != nil {
		return fileStamp{path: path, absent: true}
	}
	return fileStamp{path: path, dev: st.Dev, ino: st.Ino, size: st.Size, mtime: st.Mtim, ctime: st.Ctim}
}

// settled says the stamp's file last changed before the racy window.
func (s fileStamp) settled(now time.Time) bool {
	if s.absent {
		return true
	}
	limit := now.Add(-racyWindow)
	return time.Unix(s.ctime.Unix()).Before(limit) && time.Unix(s.mtime.Unix()).Before(limit)
}

func cacheKey(dir string, env []string) string {
	return dir + "\x00" + strings.Join(env, "\x00")
}

// cachedConfigKeys returns the listing kept for dir and env if every file
// it was stamped with is unchanged.
func cachedConfigKeys(dir string, env []string) ([]string, bool) {
	keyCache.Lock()
	c, ok := keyCache.m[cacheKey(dir, env)]
	keyCache.Unlock()
	if !ok {
		return nil, false
	}
	for _, f := range c.files {
		if stamp(f.path) != f {
			return nil, false
		}
	}
	return append([]string(nil), c.keys...), true
}

// rememberConfigKeys keeps a listing when it can be checked for change by
// stamps alone: it was read from the standard files only (no include,
// whose target may not exist yet; no includeIf, which may depend on the
// branch; no per-worktree file), the repository's own file is among them,
// and none changed within the racy window. files are the origins git
// reported (see parseOrigins).
func rememberConfigKeys(dir string, env []string, keys, origins []string, before time.Time) {
	for _, k := range keys {
		lk := strings.ToLower(k)
		if strings.HasPrefix(lk, "include.") || strings.HasPrefix(lk, "includeif.") || lk == "extensions.worktreeconfig" {
			return
		}
	}
	candidates := standardConfigFiles(env)
	known := map[string]bool{}
	for _, c := range candidates {
		known[c] = true
	}
	repo := ""
	for _, o := range origins {
		if !filepath.IsAbs(o) {
			o = filepath.Join(dir, o)
		}
		if known[o] {
			continue
		}
		if repo != "" && repo != o {
			return // a second file beside the repository's: not a layout this cache knows
		}
		repo = o
	}
	// git names the repository's file relative to the top level, not to
	// dir: one that is not there is some other layout, not cached.
	if repo == "" || filepath.Base(repo) != "config" || stamp(repo).absent {
		return
	}
	files := make([]fileStamp, 0, len(candidates)+1)
	for _, p := range append(candidates, repo) {
		s := stamp(p)
		if !s.settled(before) {
			return
		}
		files = append(files, s)
	}
	keyCache.Lock()
	keyCache.m[cacheKey(dir, env)] = cachedKeys{keys: append([]string(nil), keys...), files: files}
	keyCache.Unlock()
}

// standardConfigFiles are the system and global files git may read under
// env, whether or not they exist now. Both the default locations and the
// ones env names are stamped: more stamps only mean listing again sooner.
func standardConfigFiles(env []string) []string {
	get := func(name string) string {
		for i := len(env) - 1; i >= 0; i-- {
			if v, ok := strings.CutPrefix(env[i], name+"="); ok {
				return v
			}
		}
		return ""
	}
	files := []string{"/etc/gitconfig"}
	for _, name := range []string{"GIT_CONFIG_SYSTEM", "GIT_CONFIG_GLOBAL"} {
		if p := get(name); p != "" {
			files = append(files, p)
		}
	}
	home, xdg := get("HOME"), get("XDG_CONFIG_HOME")
	if xdg == "" && home != "" {
		xdg = filepath.Join(home, ".config")
	}
	if xdg != "" {
		files = append(files, filepath.Join(xdg, "git", "config"))
	}
	if home != "" {
		files = append(files, filepath.Join(home, ".gitconfig"))
	}
	return files
}

// parseOrigins splits "git config --show-origin --name-only --list -z"
// output into the key names and the distinct files they came from
// (command-line entries have no file).
func parseOrigins(out []byte) (keys, files []string) {
	fields := strings.Split(string(out), "\x00")
	seen := map[string]bool{}
	for i := 0; i+1 < len(fields); i += 2 {
		origin, key := fields[i], fields[i+1]
		if key == "" {
			continue
		}
		keys = append(keys, key)
		if f, ok := strings.CutPrefix(origin, "file:"); ok && !seen[f] {
			seen[f] = true
			files = append(files, f)
		}
	}
	return keys, files
}
