package store

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/josecorral/fluzo/lib/core"
	"golang.org/x/sys/unix"
)

// ArtifactRef names stored content by its SHA-256 (lowercase hex).
type ArtifactRef struct {
	SHA256    string    `json:"sha256"`
	Size      int64     `json:"size"`
	MediaType string    `json:"media_type,omitempty"`
	CreatedAt time.Time `json:"created_at,omitzero"`
}

// ArtifactPath returns where content with this hash lives:
// .fluzodrive/artifacts/<first two hex digits>/<hash>.
func (w Workspace) ArtifactPath(sha string) string {
	return filepath.Join(w.Artifacts(), sha[:2], sha)
}

func validSHA(sha string) bool {
	if len(sha) != 64 {
		return false
	}
	_, err := hex.DecodeString(sha)
	return err == nil
}

// PutArtifact writes content to the artifact directory durably: a temp
// file is written and fsynced, renamed to its content address, and the
// directory fsynced. Only then may a transaction reference it
// (tx.AttachArtifact). Identical content is stored once.
func (s *Store) PutArtifact(ctx context.Context, r io.Reader, mediaType string) (ArtifactRef, error) {
	if s.readOnly {
		return ArtifactRef{}, core.Errorf(core.CodeStorageError, "the store was opened read-only")
	}
	if err := mkdirPrivate(s.ws.Artifacts()); err != nil {
		return ArtifactRef{}, err
	}
	tmp, err := os.CreateTemp(s.ws.Artifacts(), ".tmp-*")
	if err != nil {
		return ArtifactRef{}, storageErr(err, "cannot create a temporary artifact file")
	}
	defer os.Remove(tmp.Name()) // no-op after the rename
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(tmp, h), &ctxReader{ctx: ctx, r: r})
	if err == nil {
		err = tmp.Chmod(FileMode)
	}
	if err == nil {
		err = tmp.Sync()
		s.durable.fsync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return ArtifactRef{}, asStorage(err, "cannot write artifact")
	}
	ref := ArtifactRef{SHA256: hex.EncodeToString(h.Sum(nil)), Size: n, MediaType: mediaType}
	shard := filepath.Dir(s.ws.ArtifactPath(ref.SHA256))
	if err := mkdirPrivate(shard); err != nil {
		return ref, err
	}
	if err := os.Rename(tmp.Name(), s.ws.ArtifactPath(ref.SHA256)); err != nil {
		return ref, storageErr(err, "cannot move artifact into place")
	}
	for _, dir := range []string{shard, s.ws.Artifacts()} {
		if err := syncDir(dir); err != nil {
			return ref, err
		}
		s.durable.fsync()
	}
	return ref, nil
}

// ctxReader stops a long copy when the context is cancelled.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c *ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, core.Wrap(err, core.CodeCancelled, "artifact write cancelled")
	}
	return c.r.Read(p)
}

func syncDir(dir string) error {
	fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return storageErr(err, "cannot open "+dir+" to sync it")
	}
	defer unix.Close(fd)
	if err := unix.Fsync(fd); err != nil {
		return storageErr(err, "cannot sync "+dir)
	}
	return nil
}

// AttachArtifact references a stored artifact from a session. It checks,
// inside the transaction, that the file is in place with the right size:
// purge deletes files only while holding the write lock, so a reference
// never commits to a file that is gone.
func (tx *Tx) AttachArtifact(sessionID string, ref ArtifactRef) error {
	if !validSHA(ref.SHA256) {
		return core.Errorf(core.CodeInvalidRequest, "artifact id %q is not a SHA-256", ref.SHA256)
	}
	fi, err := os.Lstat(tx.store.ws.ArtifactPath(ref.SHA256))
	if err != nil || !fi.Mode().IsRegular() || fi.Size() != ref.Size {
		return core.Errorf(core.CodeStorageError, "artifact %s is not in place (missing, replaced or of the wrong size)", ref.SHA256).
			WithHint("write it again with PutArtifact before referencing it")
	}
	now := stamp(tx.now)
	if _, err := tx.q.ExecContext(tx.ctx, "INSERT OR IGNORE INTO artifacts (sha256, size, media_type, created_at) VALUES (?, ?, ?, ?)",
		ref.SHA256, ref.Size, ref.MediaType, now); err != nil {
		return storageErr(err, "cannot record artifact")
	}
	if _, err := tx.q.ExecContext(tx.ctx, "DELETE FROM artifact_tombstones WHERE sha256 = ?", ref.SHA256); err != nil {
		return storageErr(err, "cannot record artifact")
	}
	if _, err := tx.q.ExecContext(tx.ctx, "INSERT OR IGNORE INTO artifact_refs (session_id, sha256, created_at) VALUES (?, ?, ?)",
		sessionID, ref.SHA256, now); err != nil {
		return fkErr(err, "cannot reference artifact", "session", sessionID)
	}
	return nil
}

// OpenArtifact opens stored content for reading, never through a symlink
// (neither the artifact directory, its shard nor the file may be a link).
func (s *Store) OpenArtifact(sha string) (*os.File, error) {
	if !validSHA(sha) {
		return nil, core.Errorf(core.CodeInvalidRequest, "artifact id %q is not a SHA-256", sha)
	}
	shard, err := openShard(s.ws, sha)
	if errors.Is(err, unix.ENOENT) {
		return nil, notFound("artifact", sha)
	}
	if err != nil {
		return nil, storageErr(err, "cannot open the artifact directory of "+sha)
	}
	defer unix.Close(shard)
	fd, err := unix.Openat(shard, sha, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if errors.Is(err, unix.ENOENT) {
		return nil, notFound("artifact", sha)
	}
	if err != nil {
		return nil, storageErr(err, "cannot open artifact "+sha)
	}
	return os.NewFile(uintptr(fd), s.ws.ArtifactPath(sha)), nil
}

// openShard opens .fluzodrive/artifacts/<xx> without following links.
func openShard(ws Workspace, sha string) (int, error) {
	const dirFlags = unix.O_RDONLY | unix.O_DIRECTORY | unix.O_NOFOLLOW | unix.O_CLOEXEC
	root, err := unix.Open(ws.Artifacts(), dirFlags, 0)
	if err != nil {
		return -1, err
	}
	defer unix.Close(root)
	return unix.Openat(root, sha[:2], dirFlags, 0)
}

// ListArtifacts returns the artifacts a session references.
func (q Queries) ListArtifacts(ctx context.Context, sessionID string) ([]ArtifactRef, error) {
	return collect(ctx, q.q, func(r *sql.Rows) (ArtifactRef, error) {
		var a ArtifactRef
		var created string
		err := r.Scan(&a.SHA256, &a.Size, &a.MediaType, &created)
		a.CreatedAt = parseStamp(created)
		return a, err
	}, `SELECT a.sha256, a.size, a.media_type, a.created_at FROM artifact_refs r JOIN artifacts a ON a.sha256 = r.sha256
		WHERE r.session_id = ? ORDER BY a.sha256`, sessionID)
}

// removeArtifactFile unlinks an artifact without following a symlink at
// any level below the workspace: the artifact directory and its shard are
// opened O_NOFOLLOW and the file is removed relative to them, so a link
// planted in .fluzodrive/artifacts can never redirect a purge into user
// data. A missing file is not an error (purge is idempotent).
func removeArtifactFile(ws Workspace, sha string) (bool, error) {
	shard, err := openShard(ws, sha)
	if errors.Is(err, unix.ENOENT) {
		return false, nil
	}
	if err != nil {
		return false, storageErr(err, "cannot open the artifact directory of "+sha+" (it must be a plain directory)")
	}
	defer unix.Close(shard)
	err = unix.Unlinkat(shard, sha, 0)
	if errors.Is(err, unix.ENOENT) {
		return false, nil
	}
	if err != nil {
		return false, storageErr(err, "cannot remove artifact "+sha)
	}
	return true, nil
}
