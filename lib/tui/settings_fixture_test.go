package tui

import (
	"encoding/json"
	"strings"
)

// fixtureEntries is a settings answer as fluzo-agent serve writes it
// (owner_config.go's settingEntry), one or more keys of each screen.
func fixtureEntries() []map[string]any {
	num := func(key string, v, def, lo, hi float64, unit, apply, src string) map[string]any {
		return map[string]any{"key": key, "value": v, "source": src, "type": "int", "unit": unit, "default": def,
			"min": lo, "max": hi, "valid": "an integer from " + trimFloat(lo) + " to " + trimFloat(hi), "privacy": "public", "apply": apply,
			"description": "The " + key[strings.LastIndexByte(key, '.')+1:] + " setting."}
	}
	e := []map[string]any{
		{"key": "agent.model", "value": "coder", "source": "default", "type": "string", "default": "coder", "valid": "a string",
			"privacy": "infrastructure", "apply": "future", "description": "Id of the [models.<id>] entry used for agent turns."},
		{"key": "models.coder.base_url", "value": "http://127.0.0.1:8080/v1", "source": "file", "line": 4, "type": "string", "default": "",
			"valid": "a string", "privacy": "security", "apply": "safe_boundary", "description": "Base URL of an openai_compatible endpoint."},
		{"key": "models.coder.model", "value": "sim", "source": "file", "line": 5, "type": "string", "default": "", "valid": "a string",
			"privacy": "infrastructure", "apply": "safe_boundary", "description": "Model name sent to the endpoint."},
		{"key": "models.coder.api_key_env", "value": "FLUZO_API_KEY", "source": "file", "line": 6, "type": "string", "default": "",
			"valid": "a string", "privacy": "secret_reference", "apply": "safe_boundary", "description": "Name of the environment variable holding the API key."},
		num("models.coder.max_in_flight", 1, 1, 1, 1024, "requests", "safe_boundary", "default"),
		num("capacity_pools.local_server.max_in_flight", 1, 1, 1, 1024, "requests", "safe_boundary", "default"),
		{"key": "decision.enabled", "value": false, "source": "default", "type": "bool", "default": false, "valid": "true or false",
			"privacy": "security", "apply": "live", "dev_menu": true, "description": "Send bounded shadow observations to the Laya decision model."},
		num("harness.max_turns", 30, 30, 1, 10000, "turns", "safe_boundary", "file"),
		num("harness.max_tool_calls", 100, 100, 1, 100000, "calls", "safe_boundary", "default"),
		{"key": "context.compaction_threshold", "value": 0.8, "source": "default", "type": "float", "unit": "ratio", "default": 0.8,
			"min": 0.1, "max": 0.95, "valid": "a number from 0.1 to 0.95", "privacy": "public", "apply": "future", "description": "Share of input capacity that triggers compaction."},
		num("storage.session_max_bytes", 10737418240, 10737418240, 1048576, 1125899906842624, "bytes", "future", "default"),
		{"key": "telemetry.export_enabled", "value": false, "source": "default", "type": "bool", "default": false, "valid": "true or false",
			"privacy": "security", "apply": "restart", "description": "Export traces, metrics and logs over OTLP."},
		{"key": "telemetry.archive_enabled", "value": false, "source": "default", "type": "bool", "default": true, "valid": "true or false",
			"privacy": "public", "apply": "restart", "edited": true, "saved": true, "pending_restart": true, "description": "Keep the local JSONL diagnostic archive."},
		{"key": "policy.grants", "value": []string{}, "source": "default", "type": "string_list", "default": []string{}, "valid": "an array of strings",
			"privacy": "security", "apply": "future", "description": "Standing grants."},
		{"key": "tui.theme", "value": "default", "source": "default", "type": "enum", "default": "default", "options": []string{"default", "high_contrast"},
			"valid": `one of "default", "high_contrast"`, "privacy": "public", "apply": "live", "dev_menu": true, "description": "Colour theme."},
		num("tui.animation_fps", 60, 60, 0, 60, "fps", "live", "default"),
		{"key": "tui.reduced_motion", "value": false, "source": "default", "type": "bool", "default": false, "valid": "true or false",
			"privacy": "public", "apply": "live", "dev_menu": true, "description": "Disable animated motion."},
		{"key": "tui.dev_menu", "value": false, "source": "default", "type": "bool", "default": false, "valid": "true or false",
			"privacy": "public", "apply": "live", "description": "Show the developer menu."},
		{"key": "tui.notifications.desktop_enabled", "value": false, "source": "default", "type": "bool", "default": false, "valid": "true or false",
			"privacy": "public", "apply": "live", "dev_menu": true, "description": "Also send desktop notifications."},
		num("tui.notifications.max_visible", 3, 3, 1, 5, "notices", "live", "default"),
		{"key": "tui.flags.render_diagnostics", "value": false, "source": "default", "type": "bool", "default": false, "valid": "true or false",
			"privacy": "public", "apply": "live", "dev_menu": true, "description": "Overlay render timing diagnostics."},
	}
	for _, x := range e {
		switch x["key"] {
		case "tui.animation_fps":
			x["dev_menu"] = true
		case "harness.max_turns", "harness.max_tool_calls":
			x["task_budget"] = true
		}
	}
	return e
}

func trimFloat(f float64) string {
	b, _ := json.Marshal(f)
	return string(b)
}

// settingsAck is the settings answer with edit applied to the entries.
func settingsAck(edit func(map[string]map[string]any)) string {
	list := fixtureEntries()
	byKey := map[string]map[string]any{}
	for _, e := range list {
		byKey[e["key"].(string)] = e
	}
	if edit != nil {
		edit(byKey)
	}
	b, _ := json.Marshal(map[string]any{"settings": list, "file": "/home/dev/src/wordcount/.fluzo"})
	return string(b)
}

// connectSettings connects an idle workspace whose settings answer is
// the fixture (edited by edit).
func (h *harness) connectSettings(edit func(map[string]map[string]any)) {
	h.app.begin()
	h.records(`{"v":1,"type":"ack","re":"1","data":{"cursor":0,"running":{"session":"","task":"","attempt":"","trace":""},"seqs":{},"tasks":[]}}`)
	h.records(`{"v":1,"type":"ack","re":"2","data":` + settingsAck(edit) + `}`)
}
