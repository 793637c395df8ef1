package setup

import "github.com/josecorral/fluzo/lib/config"

// Step is one screen of the flow.
type Step uint8

const (
	StepWelcome Step = iota
	StepEndpoint
	StepLimits
	StepTelemetry
	StepLaya
	StepInterface
	StepSummary
	StepExclude
	StepConsent
	StepDone
	// StepReplace asks before an existing valid file is replaced (fluzo init).
	StepReplace
	// StepDiagnosis shows a malformed file's problems; nothing is written.
	StepDiagnosis
)

var stepTitles = map[Step]string{
	StepWelcome:   "Welcome to Fluzo",
	StepEndpoint:  "Model endpoint",
	StepLimits:    "Context, slots and limits",
	StepTelemetry: "Telemetry",
	StepLaya:      "Laya shadow observations",
	StepInterface: "Interface",
	StepSummary:   "Summary",
	StepExclude:   "Git exclusion",
	StepConsent:   "Endpoint consent",
	StepDone:      "Setup complete",
	StepReplace:   "Replace the existing .fluzo?",
	StepDiagnosis: "The .fluzo file has problems",
}

// Title names the step as its screen heads it.
func (s Step) Title() string { return stepTitles[s] }

// formSteps are the steps that edit settings, in order.
var formSteps = []Step{StepEndpoint, StepLimits, StepTelemetry, StepLaya, StepInterface}

// fieldSpec is one setting a step asks for. key is a concrete registry
// key; shown, when set, hides the field unless it returns true (the
// credential reference that matches the chosen auth).
type fieldSpec struct {
	key   string
	label string
	shown func(f *Flow) bool
}

func authIs(mode string) func(f *Flow) bool {
	return func(f *Flow) bool { return f.text("models.coder.auth") == mode }
}

func isTrue(key string) func(f *Flow) bool {
	return func(f *Flow) bool { return f.text(key) == "true" }
}

// stepFields lists each form step's settings. The ids coder, laya and
// local_server are the registry's built-in collection entries.
var stepFields = map[Step][]fieldSpec{
	StepEndpoint: {
		{key: "project.name", label: "Project name"},
		{key: "models.coder.base_url", label: "Base URL"},
		{key: "models.coder.model", label: "Model id"},
		{key: "models.coder.auth", label: "API key"},
		{key: "models.coder.api_key_env", label: "Key variable", shown: authIs(config.AuthEnv)},
		{key: "models.coder.credential_ref", label: "auth.toml entry", shown: authIs(config.AuthCredential)},
	},
	StepLimits: {
		{key: "models.coder.context_window", label: "Context window"},
		{key: "models.coder.max_output_tokens", label: "Output reserve"},
		{key: "models.coder.max_in_flight", label: "Model slots"},
		{key: "capacity_pools.local_server.max_in_flight", label: "Server slots"},
		{key: "harness.max_turns", label: "Turns per task"},
		{key: "harness.max_active_seconds", label: "Active time"},
		{key: "harness.max_total_tokens", label: "Tokens per task"},
	},
	StepTelemetry: {
		{key: "telemetry.archive_enabled", label: "Local archive"},
		{key: "telemetry.export_enabled", label: "OTLP export"},
		{key: "telemetry.otlp_endpoint", label: "OTLP endpoint", shown: isTrue("telemetry.export_enabled")},
		{key: "telemetry.capture_content", label: "Capture content"},
	},
	StepLaya: {
		{key: "decision.enabled", label: "Laya observer"},
		{key: "models.laya.endpoint", label: "Laya endpoint", shown: isTrue("decision.enabled")},
	},
	StepInterface: {
		{key: "tui.theme", label: "Theme"},
		{key: "tui.animation_fps", label: "Animation"},
		{key: "tui.reduced_motion", label: "Reduced motion"},
		{key: "tui.dev_menu", label: "Developer menu"},
	},
}

// stepNotes are the sentences a step shows above its fields.
var stepNotes = map[Step][]string{
	StepEndpoint: {
		"An OpenAI-compatible endpoint serves the agent. The API key is given by reference only: the NAME of an environment variable, or an entry of auth.toml. Its value is never asked for, shown or written.",
		"Ctrl+D lists the endpoint's models (GET /v1/models, never chargeable). Nothing is contacted unless you press it.",
	},
	StepLimits: {
		"Conservative defaults, not measurements of your server. Slots bound concurrent requests to the model and to the server it runs on.",
	},
	StepTelemetry: {
		"The local archive stays under .fluzodrive/telemetry. Export sends traces to an OTLP collector; capturing content adds prompts and outputs. Both are off unless you turn them on.",
	},
	StepLaya: {
		"Laya receives bounded shadow observations of the task. Observations never authorize, route or block anything. Off by default.",
	},
	StepInterface: {
		"Presentation only; the developer menu confers no runtime privileges.",
	},
}

// allFormKeys lists every key the form steps can set, in order.
func allFormKeys() []string {
	var keys []string
	for _, st := range formSteps {
		for _, fs := range stepFields[st] {
			keys = append(keys, fs.key)
		}
	}
	return keys
}

// stepOf returns the form step holding key, or false.
func stepOf(key string) (Step, bool) {
	for _, st := range formSteps {
		for _, fs := range stepFields[st] {
			if fs.key == key {
				return st, true
			}
		}
	}
	return 0, false
}
