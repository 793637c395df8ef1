// Package consent is the one place of the endpoint-consent rule (PRD §26,
// DESIGN invariant 14): which settings need the user's review (model, Laya
// and OTLP destinations, standing grants, injected tool environment,
// content export — the configuration fingerprint's security values), where
// the user's answer is kept, and the check every owner runs before it opens
// any connection.
//
// Consent lives outside the workspace, under
// ${XDG_STATE_HOME:-~/.local/state}/fluzo/consent/, one directory per
// workspace identity (resolved root, device, inode) and one record per
// fingerprint. It is never read from the workspace: a cloned repository's
// .fluzo or a copied .fluzodrive/ carries no consent, and a moved workspace
// asks again. Loopback destinations need consent once per fingerprint like
// any other; a plain-HTTP destination that is not loopback needs, on top, an
// explicit endpoint-scoped exception recorded with the consent.
package consent
