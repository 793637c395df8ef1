// Package config is Fluzo's single typed settings registry and the .fluzo
// file it describes (PRD §26, §27; arch §10).
//
// # Registry
//
// Settings() lists every supported key with its type (Kind), unit,
// default, valid range or options, description, privacy class and when a
// change applies. Keys inside the schema-defined collections use "*" for
// the entry id: "models.*.max_in_flight", "capacity_pools.*.queue_capacity".
// Lookup(key) resolves a concrete key ("models.coder.max_in_flight") to its
// Setting. Loading, validation, rendering ("config init"), the man page
// settings reference and the TUI all read this one table.
//
// # Loading and precedence
//
//	cfg, err := config.Open(config.Options{Workspace: root, File: flagConfig, Overrides: sets})
//
// Precedence is built-in defaults < the workspace .fluzo (or --config
// FILE) < explicit CLI overrides ("KEY=VALUE"). There is no global layer
// and no environment layer. Every value carries provenance (Source, File,
// Line). Errors are typed core errors: configuration_required for a
// missing file, invalid_configuration otherwise, with every problem as a
// Diagnostic (file:line, key, problem, valid range) in Diagnostics(err).
// Credentials are rejected: secrets are only referenced (auth = "env" +
// api_key_env, or auth = "credential" + credential_ref into auth.toml,
// resolved with cfg.APIKey).
//
// # Accessors
//
//	cfg.Int("harness.max_turns")            // int64
//	cfg.Seconds("harness.max_active_seconds") // time.Duration
//	cfg.Float("context.compaction_threshold")
//	cfg.String("policy.shell")             // strings and enums
//	cfg.Bool("decision.enabled")
//	cfg.Strings("policy.grants")
//	cfg.StringMap("tools.shell.env")
//	cfg.IDs("models"); cfg.Model("coder"); cfg.Pool("local_server")
//	cfg.Lookup(key) // Value with Source, File, Line
//
// Accessors panic on a key missing from the registry or of another type:
// a programming error, never a user input error.
//
// # Saving
//
//	d := cfg.Edit(); d.Set("harness.max_turns", "40"); res, err := d.Save()
//
// Save re-reads the file, applies only the edited keys to its text
// (comments, layout and every other key survive), validates the result and
// replaces the file atomically (renameio). res.OutsideChange reports that
// the file had changed on disk since cfg was loaded; cfg.OutsideChange()
// polls for that without saving. Create publishes a new file without ever
// replacing one; Replace keeps an exact backup first.
package config
