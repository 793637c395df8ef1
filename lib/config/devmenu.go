package config

// devMenuKeys are the only settings the TUI's developer menu may change
// (PRD §29.2.2, the D0 control catalog): presentation, animation, the
// rendering diagnostics overlay, notification enablement and Laya shadow
// observation. None of them can turn on YOLO, answer or bypass an
// approval, change a budget or a capacity pool, or make a provider
// request: the owner refuses any other key from the developer menu, and
// decision.enabled still passes the consent check every security setting
// does.
var devMenuKeys = []string{
	"tui.theme",
	"tui.animation_fps",
	"tui.reduced_motion",
	"tui.flags.render_diagnostics",
	"tui.notifications.desktop_enabled",
	"decision.enabled",
}

// DevMenuKeys lists the developer menu's settings in menu order.
func DevMenuKeys() []string { return append([]string(nil), devMenuKeys...) }

// InDevMenu reports whether the developer menu may change key.
func InDevMenu(key string) bool {
	for _, k := range devMenuKeys {
		if k == key {
			return true
		}
	}
	return false
}
