package testscripts

import (
	"fmt"
	"strings"

	"github.com/josecorral/fluzo/lib/timerslack"
	"github.com/josecorral/fluzo/lib/timerslack/sysmon"
	"github.com/rogpeppe/go-internal/testscript"
)

func init() { register("own-timer-slack-in-stdout", ownTimerSlackInStdout) }

// own-timer-slack-in-stdout asserts that the last command's --json stream
// holds a command's output equal to this test process's own timer slack
// (the slack fluzo-agent was started with): what `cat
// /proc/self/timerslack_ns` run by the agent printed.
func ownTimerSlackInStdout(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 0 {
		ts.Fatalf("usage: own-timer-slack-in-stdout")
	}
	own, err := timerslack.Current()
	if err != nil {
		ts.Fatalf("own-timer-slack-in-stdout: %v", err)
	}
	if own == sysmon.Slack {
		ts.Fatalf("own-timer-slack-in-stdout: this test process runs with the agent's raised slack, so the check would prove nothing")
	}
	want := fmt.Sprintf(`%d\n`, own)
	if out := ts.ReadFile("stdout"); !strings.Contains(out, `"`+want) {
		ts.Fatalf("no command output %q (this process's timer slack) in the stream", want)
	}
}
