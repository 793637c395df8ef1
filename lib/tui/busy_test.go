package tui

import "github.com/josecorral/fluzo/lib/port"

func busyLost() error {
	return &port.LostError{ExitCode: 11, Stderr: "fluzo-agent: another process owns this workspace: instance ins_01X (pid 4242, started 2026-12-01T18:00:00Z)"}
}
