package store

import (
	"context"
	"os"
	"path/filepath"
	"syscall"

	"github.com/josecorral/fluzo/lib/core"
)

// Names inside a workspace.
const (
	DriveName    = ".fluzodrive"
	DatabaseName = "state.sqlite3"
	ArtifactsDir = "artifacts"
	OwnerLock    = "owner.lock"
)

// Workspace is a resolved working tree: its real root path plus the
// filesystem identity (device, inode) of that directory, so that a moved,
// replaced or re-cloned tree is recognisable as a different workspace even
// at the same path.
type Workspace struct {
	Root  string `json:"root"`
	Dev   uint64 `json:"dev"`
	Inode uint64 `json:"inode"`
}

// Drive returns the path of the workspace's private data root.
func (w Workspace) Drive() string { return filepath.Join(w.Root, DriveName) }

// Database returns the path of the SQLite store.
func (w Workspace) Database() string { return filepath.Join(w.Drive(), DatabaseName) }

// Artifacts returns the path of the artifact directory.
func (w Workspace) Artifacts() string { return filepath.Join(w.Drive(), ArtifactsDir) }

// OwnerLockPath returns the path of the workspace-owner lock file.
func (w Workspace) OwnerLockPath() string { return filepath.Join(w.Drive(), OwnerLock) }

// ResolveWorkspace finds the workspace containing dir ("" = the current
// directory): the git top level, with symlinks resolved, plus its device and
// inode. It runs git with repository helpers disabled.
func ResolveWorkspace(ctx context.Context, dir string) (Workspace, error) {
	if dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return Workspace{}, core.Wrap(err, core.CodeConfigurationRequired, "the current directory is unavailable").
				WithHint("cd into the repository, or pass --workspace DIR")
		}
		dir = wd
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return Workspace{}, core.Wrap(err, core.CodeUsage, "invalid workspace path "+dir)
	}
	if fi, err := os.Stat(abs); err != nil || !fi.IsDir() {
		return Workspace{}, core.Errorf(core.CodeConfigurationRequired, "workspace %s is not a directory", abs).
			WithHint("pass --workspace with an existing repository directory")
	}
	top, err := gitTopLevel(ctx, abs)
	if err != nil {
		return Workspace{}, err
	}
	return identify(top)
}

// identify resolves root's symlinks and reads its filesystem identity.
func identify(root string) (Workspace, error) {
	real, err := filepath.EvalSymlinks(root)
	if err != nil {
		return Workspace{}, core.Wrap(err, core.CodeConfigurationRequired, "cannot resolve workspace "+root).
			WithHint("check that the directory exists and is readable")
	}
	fi, err := os.Stat(real)
	if err != nil {
		return Workspace{}, core.Wrap(err, core.CodeConfigurationRequired, "cannot stat workspace "+real).
			WithHint("check that the directory exists and is readable")
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return Workspace{}, core.Errorf(core.CodeStorageError, "the filesystem of %s reports no device/inode identity", real).
			WithHint("use a local POSIX filesystem for the workspace")
	}
	return Workspace{Root: real, Dev: uint64(st.Dev), Inode: uint64(st.Ino)}, nil
}
