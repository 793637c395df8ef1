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

func TestWorktreeCommands(t *testing.T) {
	for _, tc := range []struct {
		cmd, want string
		args      Args
		fields    map[string]any
	}{
		{want: "review", fields: map[string]any{"task": "tsk_1"}},
		{want: "accept", fields: map[string]any{"task": "tsk_1", "diff_id": "abc"}},
		{want: "reject", fields: map[string]any{"task": "tsk_1", "yes": true}},
		{want: "repair", fields: map[string]any{"task": "tsk_1", "feedback": "more"}},
	} {
		switch tc.want {
		case "review":
			tc.cmd, tc.args = Review("tsk_1")
		case "accept":
			tc.cmd, tc.args = Accept("tsk_1", "abc")
		case "reject":
			tc.cmd, tc.args = Reject("tsk_1")
		case "repair":
			tc.cmd, tc.args = Repair("tsk_1", "more")
		}
		if tc.cmd != tc.want || len(tc.args) != len(tc.fields) {
			t.Fatalf("%s: %s %v", tc.want, tc.cmd, tc.args)
		}
		for k, v := range tc.fields {
			if tc.args[k] != v {
				t.Errorf("%s: %s = %v, want %v", tc.want, k, tc.args[k], v)
			}
		}
	}
	if _, a := Accept("tsk_1", ""); a["diff_id"] != nil {
		t.Errorf("accept without a diff id sends one: %v", a)
	}
}
