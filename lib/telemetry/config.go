package telemetry

import "github.com/josecorral/fluzo/lib/config"

// OptionsFromConfig maps the [telemetry] settings of an effective .fluzo
// configuration onto Options, so the agent starts telemetry in one line:
//
//	rt, err := telemetry.Start(ctx, telemetry.OptionsFromConfig(cfg, ws.Drive(), "fluzo-agent"))
//
// Export headers (credentials) are not configuration: set Export.Headers
// from the user's credential store after this call.
func OptionsFromConfig(c *config.Config, drive, component string) Options {
	o := Options{Component: component, CaptureContent: c.Bool("telemetry.capture_content")}
	if c.Bool("telemetry.archive_enabled") {
		o.DriveDir = drive
		o.Archive.SegmentBytes = c.Int("telemetry.archive_file_max_bytes")
		o.Archive.MaxTotalBytes = c.Int("storage.diagnostic_max_bytes")
	}
	if c.Bool("telemetry.export_enabled") {
		o.Export.Enabled = true
		o.Export.Endpoint = c.String("telemetry.otlp_endpoint")
	}
	return o
}
