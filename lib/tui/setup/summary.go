package setup

import (
	"net/url"

	"github.com/josecorral/fluzo/lib/config"
)

// toSummary validates every step and prepares the file text and its
// redacted summary.
func (f *Flow) toSummary() {
	if !f.validateThrough(formSteps[len(formSteps)-1]) {
		return
	}
	cfg, _ := f.build()
	data := config.Render(cfg)
	if _, err := config.Parse(data, f.env.Path); err != nil {
		// The registry rendered what it validated; a failure here is a
		// bug, shown rather than written.
		f.stepErr = "the prepared file does not validate: " + errorText(err)
		return
	}
	f.data = data
	f.goTo(StepSummary)
}

// summaryKey writes only on a typed y (or a second Ctrl+S): an Enter
// held through the last field must not publish the file.
func (f *Flow) summaryKey(k Key) {
	switch {
	case k.Code == KeySummary, k.Code == KeyRune && (k.Rune == 'y' || k.Rune == 'Y'):
		f.write()
	case k.Code == KeyEsc, k.Code == KeyRune && (k.Rune == 'n' || k.Rune == 'N'):
		f.goTo(formSteps[len(formSteps)-1])
	default:
		f.scrollKey(k)
	}
}

func (f *Flow) write() {
	note, err := f.seam.Write(f.data, f.env.Existing != nil)
	if err != nil {
		f.stepErr = "nothing was written: " + errorText(err)
		return
	}
	f.written, f.writeNote, f.stepErr = true, note, ""
	f.goTo(StepExclude)
}

// questionKey answers an explicit yes/no question: only y or n, never
// Enter, so a held or pasted key cannot answer it.
func (f *Flow) questionKey(k Key) {
	if f.scrollKey(k) {
		return
	}
	yes := k.Code == KeyRune && (k.Rune == 'y' || k.Rune == 'Y')
	no := k.Code == KeyEsc || k.Code == KeyRune && (k.Rune == 'n' || k.Rune == 'N')
	if !yes && !no {
		return
	}
	switch f.step {
	case StepReplace:
		if no {
			f.finish(false)
			return
		}
		f.goTo(StepWelcome)
	case StepExclude:
		f.answerExclude(yes)
	case StepConsent:
		f.answerConsent(yes)
	}
}

func (f *Flow) answerExclude(yes bool) {
	switch {
	case !yes:
		f.excludeNote = "not added: .fluzodrive/ may show up in git status until you exclude or ignore it"
	default:
		if note, err := f.seam.Exclude(); err != nil {
			f.excludeNote = "not added: " + errorText(err)
		} else {
			f.excludeNote = note
		}
	}
	f.review = Review{}
	rv, err := f.seam.Review()
	if err != nil {
		f.consentNote = "cannot review the written file: " + errorText(err)
		f.goTo(StepDone)
		return
	}
	f.review = rv
	f.goTo(StepConsent)
}

func (f *Flow) answerConsent(yes bool) {
	if !yes {
		f.consentNote = "not recorded: the agent will not contact the endpoint until you run fluzo-admit consent grant"
		f.goTo(StepDone)
		return
	}
	note, err := f.seam.Consent(f.review.Cleartext)
	if err != nil {
		f.consentNote = "not recorded: " + errorText(err)
	} else {
		f.consentNote = note
	}
	f.goTo(StepDone)
}

// displayURL is a URL as the summary shows it: scheme, host and path,
// never a query or user information.
func displayURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return "(not a URL)"
	}
	return (&url.URL{Scheme: u.Scheme, Host: u.Host, Path: u.Path}).String()
}

func onOff(s string) string {
	if s == "true" {
		return "on"
	}
	return "off"
}

// keyReference says where the API key comes from, never what it is.
func (f *Flow) keyReference() string {
	switch f.text("models.coder.auth") {
	case config.AuthEnv:
		return "from the environment variable " + f.text("models.coder.api_key_env") + " (its value is not shown or written)"
	case config.AuthCredential:
		return "from the auth.toml entry " + f.text("models.coder.credential_ref") + " (its value is not shown or written)"
	}
	return "none (a trusted local endpoint)"
}

// summaryLines is the redacted summary shown before anything is written.
func (f *Flow) summaryLines() []string {
	t := f.text
	target := "new file, created atomically; if one appears meanwhile nothing is replaced"
	if f.env.Existing != nil {
		target = "replaces the existing file; an exact backup is kept under .fluzodrive/backups"
	}
	laya := "off"
	if t("decision.enabled") == "true" {
		laya = "on, observations to " + displayURL(t("models.laya.endpoint"))
	}
	export := "off"
	if t("telemetry.export_enabled") == "true" {
		export = "on, to " + displayURL(t("telemetry.otlp_endpoint"))
	}
	return []string{
		"Target:       " + f.env.Path,
		"              " + target,
		"Project:      " + t("project.name"),
		"Endpoint:     " + displayURL(t("models.coder.base_url")) + ", model " + t("models.coder.model"),
		"API key:      " + f.keyReference(),
		"Context:      " + t("models.coder.context_window") + " tokens, " + t("models.coder.max_output_tokens") + " reserved for output",
		"Slots:        model " + t("models.coder.max_in_flight") + ", server " + t("capacity_pools.local_server.max_in_flight"),
		"Task limits:  " + t("harness.max_turns") + " turns, " + t("harness.max_active_seconds") + " s active, " + t("harness.max_total_tokens") + " tokens",
		"Telemetry:    local archive " + onOff(t("telemetry.archive_enabled")) + "; OTLP export " + export + "; content capture " + onOff(t("telemetry.capture_content")),
		"Laya:         " + laya,
		"Interface:    theme " + t("tui.theme") + ", " + t("tui.animation_fps") + " fps, reduced motion " + onOff(t("tui.reduced_motion")) + ", developer menu " + onOff(t("tui.dev_menu")),
		"",
		"Every other setting is written with its default and an explanation. Even without secrets, .fluzo can reveal infrastructure and preferences: committing it, or changing Git ignore rules, is your decision.",
	}
}
