package tui

import (
	"fmt"
	"strings"
	"time"

	"github.com/josecorral/fluzo/lib/port"
	"github.com/josecorral/fluzo/lib/tui/notify"
)

// The notices the screen raises, each from a port record it already
// applies: a task's outcome, an approval it waits for, a refused command,
// the port's warnings, a lost backend and a notification setting the
// screen cannot use. Each is keyed by the event it reports, so the same
// event delivered twice is one notice and two outcomes with the same text
// are two.

// shortTask is a task id short enough for a toast and a desktop notice:
// the kind prefix and the id's random tail.
func shortTask(id string) string {
	if len(id) <= 12 {
		return id
	}
	return id[:4] + id[len(id)-8:]
}

func (a *App) toastResult(r *port.Result) {
	task := r.Task
	if task == "" {
		task = a.task.id
	}
	key := "result:" + task + ":" + r.Attempt + ":" + r.Status
	name := "Task " + shortTask(task)
	if task == "" {
		name = "The task"
	}
	switch a.phase {
	case phaseCompleted:
		a.toast(key, notify.Success, name+" completed", "ctrl+t tasks", deskCompleted, task)
	case phaseCancelled:
		a.toast(key, notify.Info, name+" cancelled", "", deskNone, task)
	case phaseBlocked:
		a.toast(key, notify.Warning, name+" blocked: "+statusWords(r.Status, r.Reason), "ctrl+r resumes (asks)", deskBlocked, task)
	case phaseInterrupted:
		a.toast(key, notify.Warning, name+" interrupted: "+statusWords(r.Status, r.Reason), "ctrl+r resumes (asks)", deskNone, task)
	default:
		a.toast(key, notify.Error, name+" failed: "+statusWords(r.Status, r.Reason), "ctrl+d diagnostics", deskFailed, task)
	}
}

// statusWords is a result status (and its reason when it adds one) as
// words: runtime vocabulary, never the result's free text.
func statusWords(status, reason string) string {
	s := strings.ReplaceAll(status, "_", " ")
	if reason != "" && reason != status {
		s += " (" + strings.ReplaceAll(reason, "_", " ") + ")"
	}
	return safeLine(s)
}

// toastApproval: the task waits for the person. The card stays in the
// conversation until answered; the toast only points at it.
func (a *App) toastApproval(ev *port.Event, ap *approval) {
	a.toast("approval:"+ap.operation, notify.Warning, "Approval needed: "+ap.tool, "tab, then a / t / d on the card", deskBlocked, ev.Task)
}

func (a *App) toastRefused(re, cmd, code string) {
	if cmd == "" {
		cmd = "a command" // an answer to no request this screen sent
	}
	a.toast("refused:"+re, notify.Error, cmd+" refused: "+code, "details in the conversation", deskNone, "")
}

// toastLive: the port's warnings are informational; a protocol error
// (serve could not read a command) is a failure.
func (a *App) toastLive(kind, msg string) {
	sev := notify.Info
	if kind == "protocol_error" {
		sev = notify.Error
	}
	a.toast("live:"+kind+":"+msg, sev, kind+": "+msg, "", deskNone, "")
}

func (a *App) toastLost() {
	a.toast("lost", notify.Error, "Disconnected from fluzo-agent serve", "restart fluzo-tui to reconnect", deskNone, "")
}

// notificationSettings applies tui.notifications.* from the port's
// settings. A value the queue rejects keeps the prior one and says so by
// key: never clamped, never silently ignored.
func (a *App) notificationSettings(vals map[string]string) {
	cfg := a.notes.q.Config()
	try := func(key string, set func(c *notify.Config, n int)) {
		v, ok := vals[key]
		if !ok {
			return
		}
		next := cfg
		var n int
		_, err := fmt.Sscan(v, &n)
		if err == nil {
			set(&next, n)
			err = next.Validate()
		}
		if err != nil {
			a.toast("config:"+key+"="+v, notify.Warning, key+" = "+safeLine(v)+" rejected",
				"out of range: the prior value stays", deskNone, "")
			return
		}
		cfg = next
	}
	try("tui.notifications.duration_seconds", func(c *notify.Config, n int) { c.Duration = time.Duration(n) * time.Second })
	try("tui.notifications.max_visible", func(c *notify.Config, n int) { c.MaxVisible = n })
	a.notes.q.SetConfig(cfg) // validated above
	a.notes.desk.enabled = vals["tui.notifications.desktop_enabled"] == "true"
}
