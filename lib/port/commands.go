package port

// Command builders for the port's commands. Each returns the fields after
// v/id/cmd; the Client adds those. Optional fields are omitted when empty
// so serve's strict decoder sees only what the caller meant.

// Args is a command's own fields.
type Args map[string]any

// StartTask starts one task.
func StartTask(request, verify string, noVerify bool, allow []string) (string, Args) {
	a := Args{"request": request}
	if verify != "" {
		a["verify"] = verify
	}
	if noVerify {
		a["no_verify"] = true
	}
	if len(allow) > 0 {
		a["allow"] = allow
	}
	return "start_task", a
}

// InWorktree adds the worktree option to a start_task command: the task
// runs in its own git worktree under .fluzodrive/worktrees/TASK, and its
// change waits for review (fluzo-agent review/accept/reject/repair).
func InWorktree(cmd string, a Args) (string, Args) {
	a["worktree"] = true
	return cmd, a
}

// Review asks for a worktree task's change (files, diff id, patch).
func Review(task string) (string, Args) { return "review", Args{"task": task} }

// Accept applies a worktree task's change to the working tree,
// uncommitted; diffID, when not empty, must be the reviewed change's.
func Accept(task, diffID string) (string, Args) {
	a := Args{"task": task}
	if diffID != "" {
		a["diff_id"] = diffID
	}
	return "accept", a
}

// Reject removes a worktree task's worktree and branch (confirmed).
func Reject(task string) (string, Args) { return "reject", Args{"task": task, "yes": true} }

// Repair continues a worktree task in its worktree with feedback.
func Repair(task, feedback string) (string, Args) {
	return "repair", Args{"task": task, "feedback": feedback}
}

// Approve answers the waiting operation; scope is "once" or "task".
func Approve(operation, scope string) (string, Args) {
	return "approve", Args{"operation": operation, "scope": scope}
}

// Deny refuses the waiting operation.
func Deny(operation string) (string, Args) { return "deny", Args{"operation": operation} }

// QueueIntervention queues text for the running task.
func QueueIntervention(text string) (string, Args) {
	return "queue_intervention", Args{"text": text}
}

// EditIntervention replaces the text of a queued, undelivered intervention.
func EditIntervention(id, text string) (string, Args) {
	return "edit_intervention", Args{"intervention": id, "text": text}
}

// SetYolo turns YOLO on or off for this serve process.
func SetYolo(on bool) (string, Args) { return "set_yolo", Args{"on": on} }

// Cancel asks the running task to stop gracefully.
func Cancel(task string) (string, Args) { return "cancel", Args{"task": task} }

// ForceStop stops the running task without waiting; yes must be true.
func ForceStop(task string) (string, Args) { return "force_stop", Args{"task": task, "yes": true} }

// Resume starts a new attempt of a blocked, interrupted or failed task.
func Resume(task string) (string, Args) { return "resume", Args{"task": task} }

// Subscribe asks for the snapshot and every later event.
func Subscribe() (string, Args) { return "subscribe", Args{} }

// Events pages stored events of a session after a seq.
func Events(session string, afterSeq int64, limit int) (string, Args) {
	a := Args{"session": session, "after_seq": afterSeq}
	if limit > 0 {
		a["limit"] = limit
	}
	return "events", a
}

// Status asks who owns the workspace and what runs.
func Status() (string, Args) { return "status", Args{} }

// DiffOf asks for a task's diff summary.
func DiffOf(task string) (string, Args) { return "diff", Args{"task": task} }

// DiffWindow asks for one window of a path's unified diff in a task's
// diff: limit lines from offset (0: the port's default window).
func DiffWindow(task, path string, offset, limit int) (string, Args) {
	a := Args{"task": task, "path": path}
	if offset > 0 {
		a["offset"] = offset
	}
	if limit > 0 {
		a["limit"] = limit
	}
	return "diff", a
}

// ReplayPage asks for one page of a task's timeline (lib/observe's
// replay): the entries after seq after, at most limit (0: the default).
func ReplayPage(task string, after int64, limit int) (string, Args) {
	a := Args{"task": task}
	if after > 0 {
		a["after"] = after
	}
	if limit > 0 {
		a["limit"] = limit
	}
	return "replay", a
}

// Tasks lists the workspace's tasks.
func Tasks() (string, Args) { return "tasks", Args{} }

// Diagnose asks for a task's diagnosis (lib/observe's, as fluzo-observe
// diag --json prints it).
func Diagnose(task string) (string, Args) { return "diagnose", Args{"task": task} }

// WithdrawIntervention takes a queued, undelivered intervention back.
func WithdrawIntervention(id string) (string, Args) {
	return "withdraw_intervention", Args{"intervention": id}
}

// Replay pages a task's replay timeline (lib/observe's) after a seq.
func Replay(task string, after int64, limit int) (string, Args) {
	a := Args{"task": task}
	if after > 0 {
		a["after"] = after
	}
	if limit > 0 {
		a["limit"] = limit
	}
	return "replay", a
}

// ResumePreview asks what resuming a task would find and drop (workspace
// changes, stale files, grants, YOLO), without starting anything.
func ResumePreview(task string) (string, Args) { return "resume_preview", Args{"task": task} }

// Settings asks for every effective setting with its registry entry.
func Settings() (string, Args) { return "settings", Args{} }

// ConfigEdit is one setting change: the key and its value as command-line
// text (as --set takes it).
type ConfigEdit struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

// ChangeOptions qualify a config_change: Save writes the session's
// applied edits to .fluzo; Merge saves over an outside change; Consent
// records the user's answer to a consent prompt; CurrentTask also applies
// task budgets to the running task (the extra explicit step PRD §26.2
// asks for; otherwise they apply to the next task).
type ChangeOptions struct {
	Save, Merge, Consent, CurrentTask bool
}

// ConfigChange applies edits to this session (validated whole by the
// runtime). origin is settings, theme_picker or dev_menu.
func ConfigChange(origin string, edits []ConfigEdit, o ChangeOptions) (string, Args) {
	a := Args{"origin": origin}
	if len(edits) > 0 {
		a["changes"] = edits
	}
	for k, on := range map[string]bool{"save": o.Save, "merge": o.Merge, "consent": o.Consent, "current_task": o.CurrentTask} {
		if on {
			a[k] = true
		}
	}
	return "config_change", a
}
