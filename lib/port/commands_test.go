package port

import "testing"

func TestInWorktreeAddsTheOptionToStartTask(t *testing.T) {
	cmd, a := InWorktree(StartTask("add notes", "", true, nil))
	if cmd != "start_task" || a["worktree"] != true || a["request"] != "add notes" || a["no_verify"] != true {
		t.Fatalf("%s %v", cmd, a)
	}
	if _, a := StartTask("add notes", "", false, nil); a["worktree"] != nil {
		t.Fatalf("start_task without the option carries it: %v", a)
	}
}
