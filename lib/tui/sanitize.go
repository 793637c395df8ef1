package tui

import "github.com/josecorral/fluzo/lib/termsafe"

// Every string from the model, files, tool output and history passes one
// of these (or a termsafe.Stream for deltas) before it becomes a span:
// controls, escape sequences and bidi formatting become visible, inert
// escapes (lib/termsafe).

func safeText(s string) string { return termsafe.Text(s) }

func safeLine(s string) string { return termsafe.Line(s) }
