package agent

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/josecorral/fluzo/lib/termsafe"
	"github.com/urfave/cli/v3"
)

// controlJSONFlag selects the raw ack record; without it control commands
// answer in a sentence, as every other people-facing output does.
func controlJSONFlag() cli.Flag {
	return &cli.BoolFlag{Name: "json", Usage: "print the owner's answer as its JSON ack record"}
}

// controlAck is the data of an owner's answer to status, cancel or
// force_stop; absent fields stay empty.
type controlAck struct {
	Data struct {
		Root       string `json:"root"`
		PID        int    `json:"pid"`
		State      string `json:"state"`
		Task       string `json:"task"`
		Attempt    string `json:"attempt"`
		Session    string `json:"session"`
		RunningFor string `json:"running_for"`
		Forced     bool   `json:"forced"`
	} `json:"data"`
}

// printControl writes the owner's answer for people: what the owner is
// doing, or what the cancel or kill set in motion. cmd is the command sent.
func printControl(w io.Writer, cmd string, ans json.RawMessage) {
	var a controlAck
	if json.Unmarshal(ans, &a) != nil {
		fmt.Fprintln(w, string(ans))
		return
	}
	d := a.Data
	task := termsafe.Line(d.Task)
	switch cmd {
	case "status":
		owner := fmt.Sprintf("fluzo-agent (pid %d) owns %s", d.PID, termsafe.Line(d.Root))
		if d.Task == "" {
			fmt.Fprintf(w, "%s and is idle.\n", owner)
			return
		}
		fmt.Fprintf(w, "%s: task %s is %s (attempt %s, session %s) for %s.\n",
			owner, task, termsafe.Line(d.State), termsafe.Line(d.Attempt), termsafe.Line(d.Session), termsafe.Line(d.RunningFor))
	case "cancel":
		fmt.Fprintf(w, "task %s is stopping: no new work starts, its running command ends gracefully, partial edits stay.\n", task)
	case "force_stop":
		fmt.Fprintf(w, "task %s is stopping: its owned processes were killed.\n", task)
	default:
		fmt.Fprintln(w, string(ans))
	}
}
