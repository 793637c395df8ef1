package agent

import (
	"encoding/json"

	"github.com/josecorral/fluzo/lib/config"
	"github.com/josecorral/fluzo/lib/mcp"
	"github.com/josecorral/fluzo/lib/tools/sandbox"
)

// commandConfinement is what a command's result says about its sandbox:
// how it was confined and which protected paths changed while it ran.
// Both go into the command.result event, so a refusal ("Permission
// denied" in the output) is explained next to it and a protected change
// is never summarised as nothing.
func commandConfinement(out toolOutcome) map[string]any {
	var r struct {
		Sandbox          json.RawMessage `json:"sandbox"`
		ProtectedChanged json.RawMessage `json:"protected_changed"`
	}
	if !out.OK || json.Unmarshal(out.Result, &r) != nil {
		return nil
	}
	extra := map[string]any{}
	if len(r.Sandbox) > 0 {
		extra["sandbox"] = r.Sandbox
	}
	if len(r.ProtectedChanged) > 0 {
		extra["protected_changed"] = r.ProtectedChanged
	}
	return extra
}

// withConfinement adds the confinement fields to a command.result event.
func withConfinement(data map[string]any, out toolOutcome) map[string]any {
	for k, v := range commandConfinement(out) {
		data[k] = v
	}
	return data
}

// sandboxUnavailable reports a command refused because it could not be
// sandboxed.
func sandboxUnavailable(out toolOutcome) bool {
	return out.Error != nil && out.Error.Code == sandbox.CodeUnavailable
}

// effectiveSandbox is what the configured sandbox resolves to where the
// commands run (the kernel's Landlock ABI, or that there is none),
// recorded with the configuration snapshot of each attempt: the tool
// backend's answer when its handshake gave one (a remote kernel may
// differ from this one), else this machine's.
func effectiveSandbox(c *config.Config, backend *BackendIdentity) []byte {
	if backend != nil && backend.Sandbox.Mode != "" {
		b, _ := json.Marshal(backend.Sandbox)
		return b
	}
	b, _ := json.Marshal(sandbox.Resolve(sandboxSettings(c)))
	return b
}

// sandboxSettings are the [tools.sandbox] settings.
func sandboxSettings(c *config.Config) sandbox.Settings { return mcp.SandboxSettings(c) }
