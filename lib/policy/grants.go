package policy

import "github.com/josecorral/fluzo/lib/core"

// Grant is an active permission with an exact scope, as policy matches it.
// Its durable lifecycle (issued, consumed, expired, revoked, and the audit
// events) is the store's: see lib/store/grants.go.
type Grant struct {
	ID     string          `json:"id"`
	Scope  core.GrantScope `json:"scope"`
	Spec   Spec            `json:"-"`
	Source string          `json:"source"` // user, cli, config
	TaskID string          `json:"task,omitempty"`
}
