package telemetry

import (
	"testing"

	"github.com/josecorral/fluzo/lib/config"
)

func TestOptionsFromConfig(t *testing.T) {
	o := OptionsFromConfig(config.Defaults(), "/ws/.fluzodrive", "fluzo-agent")
	if o.DriveDir != "/ws/.fluzodrive" || o.Export.Enabled || o.CaptureContent || o.Archive.SegmentBytes != 64<<20 {
		t.Fatalf("defaults = %+v", o)
	}
	c, err := config.Parse([]byte("schema_version = 1\n[telemetry]\nexport_enabled = true\notlp_endpoint = \"http://127.0.0.1:4318\"\narchive_enabled = false\n"), ".fluzo")
	if err != nil {
		t.Fatal(err)
	}
	o = OptionsFromConfig(c, "/ws/.fluzodrive", "fluzo-agent")
	if o.DriveDir != "" || !o.Export.Enabled || o.Export.Endpoint != "http://127.0.0.1:4318" {
		t.Fatalf("configured = %+v", o)
	}
}
