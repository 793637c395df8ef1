package sandbox

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Rule grants Access beneath Path (on the file itself for a non-directory).
type Rule struct {
	Path   string `json:"path"`
	Access uint64 `json:"access"`
}

// Plan is a computed sandbox, what the launcher enforces.
type Plan struct {
	ABI        int    `json:"abi"`
	Network    string `json:"network"`
	HandledFS  uint64 `json:"handled_fs"`
	HandledNet uint64 `json:"handled_net"`
	Scoped     uint64 `json:"scoped"`
	Rules      []Rule `json:"rules"`
	// ReadOnly lists the protected paths the launcher binds read-only in
	// a private mount namespace before restricting itself (Landlock
	// cannot deny a path beneath a granted directory).
	ReadOnly []string `json:"read_only"`
	// Cwd is the command's working directory by path: a launcher that
	// starts in a new mount namespace inherits a working directory in the
	// old one, where the binds are not seen, and re-enters it by this path
	// (checking it is the same directory).
	Cwd string `json:"cwd,omitempty"`
	// Control says the launcher's fd proc.ReaperFD is fluzo-tool's control
	// socket (proc.Spec.Reaper).
	Control bool `json:"control,omitempty"`
}

// Input is what a plan is computed from.
type Input struct {
	Settings Settings
	ABI      int
	// Workspace is the absolute workspace root; Temp the command's private
	// temporary directory.
	Workspace, Temp string
	// Protected are the absolute protected paths beneath the workspace.
	Protected []string
	// Env is the child's environment (PATH, HOME, the cache variables).
	Env []string
	// Cwd is the command's absolute working directory.
	Cwd string
}

// systemReadable are read and executed by every command; none of them is
// the user's home.
var systemReadable = []string{"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/opt", "/etc", "/proc", "/sys", "/nix/store"}

// devices are the device nodes a command may read and write.
var devices = []string{"/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom", "/dev/tty"}

// NewPlan computes the ruleset for in. Paths are granted as given; the
// kernel resolves symlinks when the launcher opens them, so a cache that
// is a link elsewhere is granted where it points.
func NewPlan(in Input) *Plan {
	network := in.Settings.Network
	if network == "" {
		network = NetworkDeny
	}
	p := &Plan{ABI: in.ABI, Network: network}
	p.HandledFS, p.HandledNet, p.Scoped = handled(in.ABI, network)
	env := envMap(in.Env)
	home := env["HOME"]
	grants := map[string]uint64{}
	grant := func(path string, access uint64) {
		if path == "" || !filepath.IsAbs(path) {
			return
		}
		path = filepath.Clean(path)
		grants[path] |= access & p.HandledFS
	}
	for _, d := range systemReadable {
		grant(d, accessRead|accessExec)
	}
	for _, d := range devices {
		grant(d, accessDevice)
	}
	for _, d := range toolchainDirs(env, home) {
		grant(d, accessRead|accessExec)
	}
	for _, f := range userConfigFiles(env, home) {
		grant(f, accessReadFile)
	}
	for _, d := range cacheDirs(env, home) {
		grant(d, accessRead|accessExec|accessWrite)
	}
	for _, d := range in.Settings.Readable {
		grant(d, accessRead|accessExec)
	}
	for _, d := range in.Settings.Writable {
		grant(d, accessRead|accessExec|accessWrite)
	}
	grant(in.Workspace, accessRead|accessExec|accessWrite)
	grant(in.Temp, accessRead|accessExec|accessWrite)
	for path, access := range grants {
		if access != 0 {
			p.Rules = append(p.Rules, Rule{Path: path, Access: access})
		}
	}
	sort.Slice(p.Rules, func(i, j int) bool { return p.Rules[i].Path < p.Rules[j].Path })
	p.ReadOnly = append([]string{}, in.Protected...)
	p.Cwd = in.Cwd
	return p
}

func envMap(env []string) map[string]string {
	m := map[string]string{}
	for _, kv := range env {
		if k, v, ok := strings.Cut(kv, "="); ok {
			m[k] = v
		}
	}
	return m
}

// toolchainDirs are where programs and toolchains live: the PATH entries
// (except the home directory itself, its ancestors and "/", which would
// grant the credential files), the Go root of the go on PATH and the Rust
// toolchains.
func toolchainDirs(env map[string]string, home string) []string {
	var dirs []string
	for _, d := range filepath.SplitList(env["PATH"]) {
		if safeToGrant(d, home) {
			dirs = append(dirs, d)
		}
	}
	if r := env["GOROOT"]; safeToGrant(r, home) {
		dirs = append(dirs, r)
	}
	if r := goRootOfPath(env["PATH"]); safeToGrant(r, home) {
		dirs = append(dirs, r)
	}
	if r := orDefault(env["RUSTUP_HOME"], home, ".rustup"); safeToGrant(r, home) {
		dirs = append(dirs, r)
	}
	if c := orDefault(env["CARGO_HOME"], home, ".cargo"); c != "" {
		dirs = append(dirs, filepath.Join(c, "bin"))
	}
	return dirs
}

// cacheDirs are the build and package caches commands write: Go's build
// and module caches, the XDG cache directory and cargo's registry and git
// checkouts (not CARGO_HOME itself, which holds credentials.toml).
func cacheDirs(env map[string]string, home string) []string {
	xdgCache := orDefault(env["XDG_CACHE_HOME"], home, ".cache")
	gopath := ""
	if list := filepath.SplitList(env["GOPATH"]); len(list) > 0 {
		gopath = list[0]
	}
	if gopath == "" && home != "" {
		gopath = filepath.Join(home, "go")
	}
	dirs := []string{xdgCache, env["GOCACHE"], env["GOMODCACHE"], env["CARGO_TARGET_DIR"]}
	if xdgCache != "" {
		dirs = append(dirs, filepath.Join(xdgCache, "go-build"))
	}
	if gopath != "" {
		dirs = append(dirs, filepath.Join(gopath, "pkg", "mod"))
	}
	if c := orDefault(env["CARGO_HOME"], home, ".cargo"); c != "" {
		dirs = append(dirs, filepath.Join(c, "registry"), filepath.Join(c, "git"), filepath.Join(c, ".package-cache"), filepath.Join(c, ".package-cache-mutate"), filepath.Join(c, ".global-cache"))
	}
	var out []string
	for _, d := range dirs {
		if safeToGrant(d, home) {
			out = append(out, d)
		}
	}
	return out
}

// userConfigFiles are configuration files in the home directory that
// tools read and that hold no credentials by design (git's and cargo's
// settings; git's credential store is a separate file, not granted).
func userConfigFiles(env map[string]string, home string) []string {
	if home == "" {
		return nil
	}
	xdgConfig := orDefault(env["XDG_CONFIG_HOME"], home, ".config")
	cargo := orDefault(env["CARGO_HOME"], home, ".cargo")
	return []string{
		filepath.Join(home, ".gitconfig"),
		filepath.Join(xdgConfig, "git", "config"), filepath.Join(xdgConfig, "git", "ignore"), filepath.Join(xdgConfig, "git", "attributes"),
		filepath.Join(cargo, "config.toml"), filepath.Join(cargo, "config"),
		filepath.Join(orDefault(env["RUSTUP_HOME"], home, ".rustup"), "settings.toml"),
	}
}

func orDefault(v, home, rel string) string {
	if v != "" {
		return v
	}
	if home == "" {
		return ""
	}
	return filepath.Join(home, rel)
}

// safeToGrant refuses relative paths, "/" and the home directory or any of
// its ancestors: granting one of those would grant every credential file
// beneath the home.
func safeToGrant(d, home string) bool {
	if d == "" || !filepath.IsAbs(d) {
		return false
	}
	d = filepath.Clean(d)
	if d == "/" {
		return false
	}
	if home != "" {
		h := filepath.Clean(home)
		if d == h || strings.HasPrefix(h+"/", d+"/") {
			return false
		}
	}
	return true
}

// goRootOfPath returns the root of the Go installation whose go command
// PATH finds (its bin directory's parent, symlinks resolved), "" if none.
func goRootOfPath(path string) string {
	for _, d := range filepath.SplitList(path) {
		if d == "" || !filepath.IsAbs(d) {
			continue
		}
		exe := filepath.Join(d, "go")
		if st, err := os.Stat(exe); err == nil && st.Mode().IsRegular() {
			real, err := filepath.EvalSymlinks(exe)
			if err != nil {
				return ""
			}
			bin := filepath.Dir(real)
			if filepath.Base(bin) == "bin" {
				return filepath.Dir(bin)
			}
			return ""
		}
	}
	return ""
}
