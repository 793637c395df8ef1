package agent

import (
	"os"
	"syscall"
)

// faultPoint kills the process with SIGKILL at a named crash boundary when
// FLUZO_FAULT names it. It is honoured only under the explicit fault test
// profile (FLUZO_TEST_PROFILE=fault), so a stray variable in a user's
// environment cannot crash a real run.
func faultPoint(name string) {
	if os.Getenv("FLUZO_TEST_PROFILE") != "fault" || os.Getenv("FLUZO_FAULT") != name {
		return
	}
	syscall.Kill(os.Getpid(), syscall.SIGKILL)
	select {} // SIGKILL is not catchable; never continue past the fault
}
