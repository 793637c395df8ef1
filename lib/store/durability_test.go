package store

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

const durabilityProbe = "durability-probe: artifact content"

// TestArtifactDurabilityChild is the process traced by
// TestArtifactIsDurableBeforeItsReferenceCommits; on its own it does nothing.
func TestArtifactDurabilityChild(t *testing.T) {
	if os.Getenv("FLUZO_TEST_ARTIFACT_CHILD") == "" {
		return
	}
	s, _ := openTemp(t)
	ses, _ := seedTask(t, s)
	putAndAttach(t, s, durabilityProbe, ses)
}

// TestArtifactIsDurableBeforeItsReferenceCommits traces the real system
// calls with strace: the artifact's temporary file is fsynced, renamed into
// place, both directories fsynced, and only then does the transaction that
// references it reach the database files.
func TestArtifactIsDurableBeforeItsReferenceCommits(t *testing.T) {
	if _, err := exec.LookPath("strace"); err != nil {
		t.Fatal("strace is required for this test; scripts/test installs it")
	}
	trace := filepath.Join(t.TempDir(), "trace")
	cmd := exec.Command("strace", "-f", "-y", "-o", trace, "-e", "trace=fsync,fdatasync,rename,renameat,renameat2",
		os.Args[0], "-test.run=^TestArtifactDurabilityChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), "FLUZO_TEST_ARTIFACT_CHILD=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("traced child failed: %v\n%s", err, out)
	}
	data, err := os.ReadFile(trace)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256([]byte(durabilityProbe))
	sha := hex.EncodeToString(sum[:])
	lines := strings.Split(string(data), "\n")
	renameAt := -1
	var tmpName string
	for i, l := range lines {
		if strings.Contains(l, "rename") && strings.Contains(l, sha) && strings.Contains(l, ".tmp-") {
			renameAt = i
			j := strings.Index(l, ".tmp-")
			tmpName = l[j : j+strings.IndexAny(l[j:], `">`)]
			break
		}
	}
	if renameAt < 0 {
		t.Fatalf("no rename of the probe artifact into place in the trace:\n%s", data)
	}
	synced := false
	for _, l := range lines[:renameAt] {
		if strings.Contains(l, "fsync(") && strings.Contains(l, tmpName) {
			synced = true
		}
	}
	if !synced {
		t.Fatalf("%s was renamed before it was fsynced:\n%s", tmpName, data)
	}
	shardSync, rootSync, dbSync := -1, -1, -1
	shard := "/artifacts/" + sha[:2] + ">"
	for i := renameAt + 1; i < len(lines); i++ {
		l := lines[i]
		switch {
		case shardSync < 0 && strings.Contains(l, "fsync(") && strings.Contains(l, shard):
			shardSync = i
		case rootSync < 0 && strings.Contains(l, "fsync(") && strings.HasSuffix(strings.SplitN(l, ">", 2)[0], "/artifacts"):
			rootSync = i
		case dbSync < 0 && shardSync > 0 && rootSync > 0 && strings.Contains(l, "state.sqlite3"):
			dbSync = i
		}
	}
	if shardSync < 0 || rootSync < 0 {
		t.Fatalf("directories not fsynced after the rename (shard %d, root %d):\n%s", shardSync, rootSync, strings.Join(lines[renameAt:], "\n"))
	}
	if dbSync < 0 {
		t.Fatalf("the referencing transaction was not synced after the artifact was durable:\n%s", strings.Join(lines[renameAt:], "\n"))
	}
}
