package tools

import (
	"os"
	"time"

	"github.com/josecorral/fluzo/lib/core"
	"golang.org/x/sys/unix"
)

// rootLockWait is how long a hello waits for another runtime's session on
// the same root to end: the backend of a lost connection may still be
// stopping its processes when the runtime reconnects.
const rootLockWait = 15 * time.Second

// lockRoot makes this session the only runtime session on its root: one
// writing task per workspace must hold across machines too, and the
// owner's lock lives with the owner, which may be on another host than
// the root. The lock is an exclusive flock on the root directory, held
// until the server closes or its process ends (so a crash releases it).
// Tools called without a hello (fluzo-tool call, embedders) take none.
func (s *Server) lockRoot() error {
	if s.rootLock != nil {
		return nil
	}
	f, err := os.OpenFile(s.root.Dir(), os.O_RDONLY|unix.O_DIRECTORY, 0)
	if err != nil {
		return core.Wrap(err, core.CodeFailed, "cannot open the root "+s.root.Dir()+" to lock it").WithHint("check its permissions")
	}
	deadline := time.Now().Add(rootLockWait)
	for {
		err = unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB)
		if err == nil {
			s.rootLock = f
			return nil
		}
		if err != unix.EWOULDBLOCK || time.Now().After(deadline) {
			f.Close()
			if err == unix.EWOULDBLOCK {
				return core.Errorf(core.CodeWorkspaceBusy, "another Fluzo runtime's fluzo-tool serves %s", s.root.Dir()).
					WithHint("one writing task per workspace: wait for the other task to end, or give this one another root")
			}
			return core.Wrap(err, core.CodeFailed, "cannot lock the root "+s.root.Dir())
		}
		time.Sleep(100 * time.Millisecond)
	}
}
