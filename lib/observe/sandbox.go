package observe

import (
	"context"
	"encoding/json"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/store"
)

// CommandSandbox sums up how a task's commands were confined, from their
// command.result events: how many ran under each sandbox mode, the
// Landlock ABI and network setting seen, and every protected path a
// command changed. A command recorded before sandboxing existed counts as
// "unknown", never as sandboxed.
type CommandSandbox struct {
	Commands         int               `json:"commands"`
	Modes            map[string]int    `json:"modes"`
	ABI              int               `json:"abi,omitempty"`
	Network          string            `json:"network,omitempty"`
	Protected        string            `json:"protected,omitempty"`
	ProtectedChanged []json.RawMessage `json:"protected_changed"`
}

func (d *Diagnosis) addSandbox(ctx context.Context, s *store.Store) error {
	d.Sandbox = CommandSandbox{Modes: map[string]int{}, ProtectedChanged: []json.RawMessage{}}
	_, err := s.EachEvent(ctx, store.EventQuery{Session: d.Task.SessionID, Task: d.Task.ID, Type: core.EvCommandResult}, func(ev core.Event) error {
		var data struct {
			Sandbox *struct {
				Mode      string `json:"mode"`
				ABI       int    `json:"abi"`
				Network   string `json:"network"`
				Protected string `json:"protected"`
			} `json:"sandbox"`
			ProtectedChanged []json.RawMessage `json:"protected_changed"`
		}
		json.Unmarshal(ev.Data, &data)
		d.Sandbox.Commands++
		mode := "unknown"
		if data.Sandbox != nil && data.Sandbox.Mode != "" {
			mode = data.Sandbox.Mode
			if data.Sandbox.ABI > 0 {
				d.Sandbox.ABI, d.Sandbox.Network, d.Sandbox.Protected = data.Sandbox.ABI, data.Sandbox.Network, data.Sandbox.Protected
			}
		}
		d.Sandbox.Modes[mode]++
		d.Sandbox.ProtectedChanged = append(d.Sandbox.ProtectedChanged, data.ProtectedChanged...)
		return nil
	})
	return err
}
