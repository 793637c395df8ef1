// Package sysmon widens the timer slack of every thread of fluzo-agent,
// before the Go runtime starts its first thread.
//
// The runtime's sysmon thread sleeps 20 µs between looks while any P is
// busy or in a system call, and goes back to 20 µs after every wake from
// a system call: on the bench's 200-turn session that is about thirty
// sleeps a turn, each a timer interrupt and two context switches, 15 % of
// the agent's own CPU. Timer slack (prctl PR_SET_TIMERSLACK) lets the
// kernel fire a thread's timers up to that much late, batching them. A
// thread inherits its creator's slack and sysmon is created before any Go
// code runs, so only a C constructor, run by the loader before the
// runtime, reaches it. It acts only in a program named fluzo-agent: the
// black-box tests' driver links every command and must not hand a raised
// slack to what it runs. 1 ms keeps sysmon's duties (retaking a P from a
// blocked system call, preempting a goroutine after 10 ms) prompt enough
// for an agent whose timeouts are seconds. Children get the slack the
// process started with (lib/timerslack.Start).
package sysmon

/*
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>
#include <sys/prctl.h>

#define FLUZO_SYSMON_SLACK 1000000UL

static unsigned long fluzo_original_slack;

__attribute__((constructor)) static void fluzo_widen_timer_slack(void) {
	if (strcmp(program_invocation_short_name, "fluzo-agent") != 0) {
		return;
	}
	int s = prctl(PR_GET_TIMERSLACK, 0, 0, 0, 0);
	if (s > 0 && prctl(PR_SET_TIMERSLACK, FLUZO_SYSMON_SLACK, 0, 0, 0) == 0) {
		fluzo_original_slack = (unsigned long)s;
	}
}

static unsigned long fluzo_original(void) { return fluzo_original_slack; }
*/
import "C"

import "github.com/josecorral/fluzo/lib/timerslack"

// Slack is the timer slack, in ns, fluzo-agent's threads run with.
const Slack = C.FLUZO_SYSMON_SLACK

func init() { timerslack.SetOriginal(uint64(C.fluzo_original())) }
