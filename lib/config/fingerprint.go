package config

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
)

// Effective returns every effective value by key, for the effective
// configuration snapshot an attempt persists. It holds no secrets: the
// configuration only ever references them.
func (c *Config) Effective() map[string]any {
	out := make(map[string]any, len(c.values))
	for k, v := range c.values {
		out[k] = v.Value
	}
	return out
}

// Fingerprint hashes the security-relevant effective values (privacy
// classes security and secret_reference: destinations, credential
// references, policy, grants, injected environment, content export).
// Consent is scoped to it, so harmless changes (animation, budgets) do not
// invalidate consent while a changed destination or grant does.
func (c *Config) Fingerprint() string {
	h := sha256.New()
	for _, v := range c.Values() {
		s, ok := Lookup(v.Key)
		if !ok || (s.Privacy != PrivacySecurity && s.Privacy != PrivacyReference) {
			continue
		}
		data, _ := json.Marshal(v.Value)
		h.Write([]byte(v.Key))
		h.Write([]byte{0})
		h.Write(data)
		h.Write([]byte{0})
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil))
}
