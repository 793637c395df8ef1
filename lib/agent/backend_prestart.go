package agent

import (
	"context"
	"os"
	"sync"

	"github.com/josecorral/fluzo/lib/config"
)

// A headless run of an in-place task always starts the workspace's tool
// server, and nothing the server's start needs comes from the store: its
// argv, environment and settings are the configuration's, its lock the
// owner's. Started as soon as the owner holds the workspace lock, its
// exec, runtime start and handshake (about 10 ms, two processes and a git
// command) run beside the store's open, recovery and telemetry instead of
// after them. A task that runs elsewhere (a worktree, a resumed task's
// root) drops it and starts its own, as before.
type prestartedBackend struct {
	root   string
	done   chan struct{}
	cancel context.CancelFunc
	tc     *toolClient
	err    error
	once   sync.Once
}

// prestartBackend starts the tool server of a task at root.
func prestartBackend(ctx context.Context, cfg *config.Config, root string, lock *os.File) *prestartedBackend {
	pctx, cancel := context.WithCancel(ctx)
	p := &prestartedBackend{root: root, done: make(chan struct{}), cancel: cancel}
	spec, err := backendSpecFor(cfg, root, nil, false)
	if err != nil {
		p.err = err
		close(p.done)
		return p
	}
	spec.Lock = lock
	// The process is started here, before the store opens, and only its
	// handshake is waited for beside the open: a headless run has one P,
	// so a goroutine would start it only when the open first yields.
	adoptToolOrphans()
	launched, err := spec.launch(pctx)
	if err != nil {
		p.err = err
		close(p.done)
		return p
	}
	go func() {
		defer close(p.done)
		p.tc, p.err = openToolServer(pctx, spec, launched)
	}()
	return p
}

// take hands the server to a task running in place at p's root (used
// false: the task runs elsewhere, and the server is dropped). Only the
// first call gets it; later ones, and drop, find it taken.
func (p *prestartedBackend) take(root string, inWorktree bool) (tc *toolClient, used bool, err error) {
	if p == nil {
		return nil, false, nil
	}
	p.once.Do(func() {
		<-p.done
		p.cancel()
		if root != p.root || inWorktree {
			if p.tc != nil {
				p.tc.Close()
			}
			return
		}
		tc, used, err = p.tc, true, p.err
	})
	return tc, used, err
}

// drop ends a server no task took (the owner closing, or its open
// failing after the start began).
func (p *prestartedBackend) drop() error {
	if p == nil {
		return nil
	}
	p.once.Do(func() {
		p.cancel()
		<-p.done
		if p.tc != nil {
			p.tc.Close()
		}
	})
	return nil
}
