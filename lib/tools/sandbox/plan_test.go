package sandbox

import (
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"
)

func planFor(t *testing.T, abi int, set Settings, env []string) (*Plan, map[string]uint64) {
	t.Helper()
	p := NewPlan(Input{Settings: set, ABI: abi, Workspace: "/work/ws", Temp: "/tmp/fluzo-tool-tmp-1",
		Protected: []string{"/work/ws/.git", "/work/ws/.fluzo", "/work/ws/.fluzodrive"}, Env: env})
	rules := map[string]uint64{}
	for _, r := range p.Rules {
		rules[r.Path] = r.Access
	}
	return p, rules
}

var testEnv = []string{"HOME=/home/u", "PATH=/home/u/.cargo/bin:/home/u:/usr/bin:/bin:.:/", "GOCACHE=/var/cache/go"}

func TestPlanWritesOnlyWorkspaceTempAndCaches(t *testing.T) {
	_, rules := planFor(t, 7, Settings{Writable: []string{"/srv/extra"}}, testEnv)
	for _, w := range []string{"/work/ws", "/tmp/fluzo-tool-tmp-1", "/var/cache/go", "/home/u/.cache", "/home/u/go/pkg/mod", "/home/u/.cargo/registry", "/home/u/.cargo/git", "/srv/extra"} {
		if rules[w]&unix.LANDLOCK_ACCESS_FS_WRITE_FILE == 0 || rules[w]&unix.LANDLOCK_ACCESS_FS_MAKE_REG == 0 {
			t.Errorf("%s is not writable: %#x", w, rules[w])
		}
	}
	for path, access := range rules {
		writable := access&(unix.LANDLOCK_ACCESS_FS_MAKE_REG|unix.LANDLOCK_ACCESS_FS_REMOVE_FILE) != 0
		switch path {
		case "/work/ws", "/tmp/fluzo-tool-tmp-1", "/var/cache/go", "/home/u/.cache", "/home/u/.cache/go-build", "/home/u/go/pkg/mod",
			"/home/u/.cargo/registry", "/home/u/.cargo/git", "/home/u/.cargo/.package-cache", "/home/u/.cargo/.package-cache-mutate", "/home/u/.cargo/.global-cache", "/srv/extra":
		default:
			if writable {
				t.Errorf("%s is writable (%#x), it should not be", path, access)
			}
		}
	}
	if rules["/usr"] != accessRead|accessExec || rules["/etc"] != accessRead|accessExec {
		t.Errorf("system directories are not read+execute only: /usr %#x /etc %#x", rules["/usr"], rules["/etc"])
	}
	if rules["/dev/null"]&unix.LANDLOCK_ACCESS_FS_WRITE_FILE == 0 {
		t.Errorf("/dev/null is not writable")
	}
}

// The home directory holds the credential files (~/.ssh, ~/.netrc,
// ~/.config/gh, Fluzo's auth.toml, cargo's credentials.toml): neither it
// nor any ancestor, "/" or a relative PATH entry may be granted, even when
// PATH names them.
func TestPlanNeverGrantsTheHomeDirectory(t *testing.T) {
	_, rules := planFor(t, 7, Settings{}, testEnv)
	for _, bad := range []string{"/home/u", "/home", "/", ".", "/home/u/.cargo", "/home/u/.ssh", "/home/u/.config", "/home/u/.config/fluzo"} {
		if _, ok := rules[bad]; ok {
			t.Errorf("%s is granted (%#x)", bad, rules[bad])
		}
	}
	for path := range rules {
		if !filepath.IsAbs(path) {
			t.Errorf("relative rule %q", path)
		}
	}
	if rules["/home/u/.cargo/bin"] != accessRead|accessExec {
		t.Errorf("the PATH entry ~/.cargo/bin is not read+execute: %#x", rules["/home/u/.cargo/bin"])
	}
	if rules["/home/u/.gitconfig"] != unix.LANDLOCK_ACCESS_FS_READ_FILE {
		t.Errorf("~/.gitconfig is not readable: %#x", rules["/home/u/.gitconfig"])
	}
}

func TestPlanHandlesTheRightsOfItsABI(t *testing.T) {
	for _, c := range []struct {
		abi     int
		network string
		refer   bool
		trunc   bool
		ioctl   bool
		net     uint64
		scoped  uint64
	}{
		{1, NetworkDeny, false, false, false, 0, 0},
		{2, NetworkDeny, true, false, false, 0, 0},
		{3, NetworkDeny, true, true, false, 0, 0},
		{4, NetworkDeny, true, true, false, netTCP, 0},
		{4, NetworkAllow, true, true, false, 0, 0},
		{5, NetworkDeny, true, true, true, netTCP, 0},
		{6, NetworkDeny, true, true, true, netTCP, scopeAll},
		{7, NetworkAllow, true, true, true, 0, unix.LANDLOCK_SCOPE_SIGNAL},
	} {
		p, rules := planFor(t, c.abi, Settings{Network: c.network}, testEnv)
		has := func(bit uint64) bool { return p.HandledFS&bit != 0 }
		if has(fsRefer) != c.refer || has(fsTruncate) != c.trunc || has(fsIoctlDev) != c.ioctl || p.HandledNet != c.net || p.Scoped != c.scoped {
			t.Errorf("ABI %d %s: handled fs %#x net %#x scoped %#x", c.abi, c.network, p.HandledFS, p.HandledNet, p.Scoped)
		}
		for path, access := range rules {
			if access&^p.HandledFS != 0 {
				t.Errorf("ABI %d: rule %s grants unhandled rights %#x", c.abi, path, access&^p.HandledFS)
			}
		}
	}
}

func TestPlanBindsTheProtectedPathsReadOnly(t *testing.T) {
	p, _ := planFor(t, 7, Settings{}, testEnv)
	if len(p.ReadOnly) != 3 || p.ReadOnly[0] != "/work/ws/.git" {
		t.Errorf("read-only binds %v", p.ReadOnly)
	}
}

func TestSettingsValidate(t *testing.T) {
	for _, bad := range []Settings{{Mode: "bwrap"}, {Network: "some"}, {Writable: []string{"rel/dir"}}, {Readable: []string{""}}} {
		if err := bad.Validate(); err == nil {
			t.Errorf("%+v validated", bad)
		}
	}
	if err := (Settings{Mode: ModeLandlock, Network: NetworkAllow, Writable: []string{"/x"}}).Validate(); err != nil {
		t.Errorf("good settings refused: %v", err)
	}
}

func TestABISeamOnlySimulatesAMissingLandlock(t *testing.T) {
	kernel := kernelABI()
	t.Setenv(ABIEnv, "0")
	if ABI() != 0 {
		t.Errorf("%s=0 not honoured", ABIEnv)
	}
	for _, v := range []string{"1", "junk", "99"} {
		t.Setenv(ABIEnv, v)
		if ABI() != kernel {
			t.Errorf("%s=%s changed the ABI to %d (kernel %d): the seam must never lower the sandbox partially", ABIEnv, v, ABI(), kernel)
		}
	}
}
