package config

import "time"

// Model is the typed view of one [models.<id>] entry.
type Model struct {
	ID, Provider, BaseURL, Endpoint, Model, Auth, APIKeyEnv, CredentialRef string
	// CapacityID is the capacity identity (the entry id when unset);
	// aliases of one backend model share it.
	CapacityID      string
	Pool            string
	ContextWindow   int64
	MaxOutputTokens int64
	MaxInFlight     int
	// Phase deadlines of one request (§43.1).
	HeaderTimeout, FirstOutputTimeout, IdleTimeout, RequestTimeout time.Duration
}

// Model returns the typed view of models.<id>; ok is false when no such
// entry exists.
func (c *Config) Model(id string) (Model, bool) {
	if !c.hasEntry("models", id) {
		return Model{}, false
	}
	p := "models." + id + "."
	return Model{
		ID: id, Provider: c.String(p + "provider"), BaseURL: c.String(p + "base_url"),
		Endpoint: c.String(p + "endpoint"), Model: c.String(p + "model"), Auth: c.String(p + "auth"),
		APIKeyEnv: c.String(p + "api_key_env"), CredentialRef: c.String(p + "credential_ref"),
		CapacityID: c.CapacityID(id), Pool: c.String(p + "pool"),
		ContextWindow: c.Int(p + "context_window"), MaxOutputTokens: c.Int(p + "max_output_tokens"),
		MaxInFlight:        int(c.Int(p + "max_in_flight")),
		HeaderTimeout:      c.Seconds(p + "header_timeout_seconds"),
		FirstOutputTimeout: c.Seconds(p + "first_output_timeout_seconds"),
		IdleTimeout:        c.Seconds(p + "idle_timeout_seconds"),
		RequestTimeout:     c.Seconds(p + "request_timeout_seconds"),
	}, true
}

// Pool is the typed view of one [capacity_pools.<id>] entry.
type Pool struct {
	ID                      string
	MaxInFlight             int
	ForegroundReservedSlots int
	QueueCapacity           int
	QueueTimeout            time.Duration
}

// Pool returns the typed view of capacity_pools.<id>.
func (c *Config) Pool(id string) (Pool, bool) {
	if !c.hasEntry("capacity_pools", id) {
		return Pool{}, false
	}
	p := "capacity_pools." + id + "."
	return Pool{
		ID: id, MaxInFlight: int(c.Int(p + "max_in_flight")),
		ForegroundReservedSlots: int(c.Int(p + "foreground_reserved_slots")),
		QueueCapacity:           int(c.Int(p + "queue_capacity")),
		QueueTimeout:            c.Seconds(p + "queue_timeout_seconds"),
	}, true
}
