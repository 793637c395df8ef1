package core

// InterruptedReason is the reason restart recovery records when it blocks
// a task whose owner went away mid-run.
const InterruptedReason = "interrupted"

// Interrupted reports whether a task stopped mid-run without finishing.
// Two records mean that: the task is still "running" in the store while
// no owner holds the workspace (the owner was killed and nobody has
// opened the store since), or a later owner's restart recovery blocked it
// as interrupted. Readers must not show the first as running: nothing is
// running it.
func (t Task) Interrupted(ownerActive bool) bool {
	switch t.State {
	case TaskRunning, TaskStopping:
		return !ownerActive
	case TaskBlocked:
		return t.Reason == InterruptedReason
	}
	return false
}

// ShownState is the state to print for people: "interrupted" for an
// interrupted task, its stored state otherwise.
func (t Task) ShownState(ownerActive bool) string {
	if t.Interrupted(ownerActive) {
		return "interrupted"
	}
	return string(t.State)
}

// ResumeCommand is the command that continues an interrupted task.
func ResumeCommand(task string) string { return "fluzo-agent resume " + task }
