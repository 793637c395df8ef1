// Package sandbox confines the commands fluzo-tool runs (exec and shell)
// with Landlock: writes only beneath the workspace, the command's private
// temporary directory and the configured caches; reads of the system, the
// toolchains and the workspace but not of the user's home (where the
// credential files live); TCP denied unless allowed. A plan is computed in
// fluzo-tool and handed to a launcher ("fluzo-tool sandbox-exec"), which
// enforces it on itself and then execs the command: Go runs no code
// between fork and exec, so the restriction is applied by a short-lived
// copy of fluzo-tool that becomes the command.
package sandbox

import (
	"github.com/josecorral/fluzo/lib/core"
)

// Modes and network settings (the values of tools.sandbox.mode and
// tools.sandbox.network).
const (
	ModeLandlock = "landlock"
	ModeOff      = "off"
	NetworkDeny  = "deny"
	NetworkAllow = "allow"
)

// CodeUnavailable reports that commands cannot be sandboxed here; they are
// refused rather than run unconfined.
const CodeUnavailable core.Code = "sandbox_unavailable"

// Settings are the user's sandbox configuration.
type Settings struct {
	// Mode is ModeLandlock or ModeOff; "" means the embedder asked for no
	// sandbox (the fluzo-tool binary always sets it).
	Mode string
	// Network is NetworkDeny (the default) or NetworkAllow.
	Network string
	// Writable and Readable are extra absolute paths the command may
	// write beneath, or read and execute beneath.
	Writable []string
	Readable []string
}

// Validate refuses unknown values and relative paths.
func (s Settings) Validate() error {
	switch s.Mode {
	case "", ModeLandlock, ModeOff:
	default:
		return core.Errorf(core.CodeInvalidConfiguration, "sandbox mode %q is not one of landlock, off", s.Mode).
			WithHint("set tools.sandbox.mode to \"landlock\" (the default) or \"off\"").With("key", "tools.sandbox.mode")
	}
	switch s.Network {
	case "", NetworkDeny, NetworkAllow:
	default:
		return core.Errorf(core.CodeInvalidConfiguration, "sandbox network %q is not one of deny, allow", s.Network).
			WithHint("set tools.sandbox.network to \"deny\" (the default) or \"allow\"").With("key", "tools.sandbox.network")
	}
	for key, paths := range map[string][]string{"tools.sandbox.writable": s.Writable, "tools.sandbox.readable": s.Readable} {
		for _, p := range paths {
			if len(p) == 0 || p[0] != '/' {
				return core.Errorf(core.CodeInvalidConfiguration, "sandbox path %q is not absolute", p).
					WithHint("list absolute paths in %s", key).With("key", key)
			}
		}
	}
	return nil
}

// Effective describes the sandbox a command actually ran under; it is
// part of every exec and shell result.
type Effective struct {
	Mode string `json:"mode"`
	// ABI is the Landlock ABI version enforced (landlock mode only).
	ABI     int    `json:"abi,omitempty"`
	Network string `json:"network,omitempty"`
	// Protected says how .git, .fluzo and .fluzodrive were kept
	// unwritable: "read_only_mount" (a private mount namespace binds them
	// read-only). A command that cannot have one is refused now; records
	// from before may say "checked_after" (not bound, only compared after
	// the command).
	Protected string `json:"protected,omitempty"`
	// Reason explains an "off" mode.
	Reason string `json:"reason,omitempty"`
	// Refuses summarises what the sandbox refuses, for the model and the
	// user reading a failed command's output.
	Refuses string `json:"refuses,omitempty"`
}

// Unavailable is the fail-closed error when Landlock is missing.
func Unavailable(why string) *core.Error {
	return core.Errorf(CodeUnavailable, "commands cannot be sandboxed: %s", why).
		WithHint("run on Linux 5.13 or newer with Landlock enabled (lsm=landlock), or set tools.sandbox.mode = \"off\" in .fluzo (fluzo-tool --sandbox off) to run commands unconfined")
}

// Resolve says what settings amount to on this machine, without running
// anything: the mode, the Landlock ABI that would be enforced, the network
// setting and the extra paths; "unavailable" when Landlock is asked for
// and the kernel has none (commands are then refused).
func Resolve(s Settings) Resolved {
	r := Resolved{Mode: s.Mode, Network: s.Network, Writable: s.Writable, Readable: s.Readable}
	if r.Network == "" {
		r.Network = NetworkDeny
	}
	switch s.Mode {
	case ModeOff:
		r.Reason = "turned off by configuration: commands run unconfined"
	case ModeLandlock:
		if r.ABI = ABI(); r.ABI == 0 {
			r.Mode, r.Reason = "unavailable", "the kernel offers no Landlock: commands are refused with sandbox_unavailable"
		}
	}
	return r
}

// Resolved is the effective sandbox a configuration asks for here.
type Resolved struct {
	Mode     string   `json:"mode"`
	ABI      int      `json:"abi,omitempty"`
	Network  string   `json:"network"`
	Writable []string `json:"writable,omitempty"`
	Readable []string `json:"readable,omitempty"`
	Reason   string   `json:"reason,omitempty"`
}
