package agent

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/tools"
)

func opResult(t *testing.T, tool string, state core.OperationState, path, version string) core.Operation {
	t.Helper()
	res, _ := json.Marshal(map[string]any{"ok": true, "result": map[string]string{"path": path, "version": version}})
	return core.Operation{Tool: tool, State: state, Result: res}
}

func TestRevalidateFindsChangedAndDeletedFiles(t *testing.T) {
	root := t.TempDir()
	write := func(p, s string) {
		os.MkdirAll(filepath.Dir(filepath.Join(root, p)), 0o755)
		os.WriteFile(filepath.Join(root, p), []byte(s), 0o644)
	}
	write("same.txt", "same\n")
	write("src/edited.rs", "after edit\n")
	write("gone.txt", "x")
	versions := map[string]string{}
	for _, o := range []core.Operation{
		opResult(t, "view", core.OpSucceeded, "same.txt", tools.Version([]byte("same\n"))),
		opResult(t, "view", core.OpSucceeded, "src/edited.rs", tools.Version([]byte("before\n"))),
		// The later edit's version supersedes the view's.
		opResult(t, "edit", core.OpSucceeded, "./src/edited.rs", tools.Version([]byte("after edit\n"))),
		opResult(t, "view", core.OpSucceeded, "gone.txt", tools.Version([]byte("x"))),
		// Failed, unknown and non-file operations say nothing about versions.
		opResult(t, "edit", core.OpFailed, "same.txt", "bogus"),
		opResult(t, "write", core.OpUnknown, "same.txt", "bogus"),
		opResult(t, "exec", core.OpSucceeded, "same.txt", "bogus"),
		// A path escaping the workspace is never read.
		opResult(t, "view", core.OpSucceeded, "../outside", "v"),
	} {
		noteFileVersion(versions, o)
	}
	if len(versions) != 3 {
		t.Fatalf("versions: %v", versions)
	}
	os.Remove(filepath.Join(root, "gone.txt"))
	write("src/edited.rs", "changed outside\n")
	rv := revalidate(context.Background(), localReads(t, root), versions)
	if rv.Checked != 3 || len(rv.Stale) != 2 {
		t.Fatalf("revalidation: %+v", rv)
	}
	if rv.Stale[0].Path != "gone.txt" || rv.Stale[0].Current != tools.Absent {
		t.Errorf("deleted file: %+v", rv.Stale[0])
	}
	if rv.Stale[1].Path != "src/edited.rs" || rv.Stale[1].Recorded != tools.Version([]byte("after edit\n")) || rv.Stale[1].Current != tools.Version([]byte("changed outside\n")) {
		t.Errorf("changed file: %+v", rv.Stale[1])
	}
	note := resumeNote(prior{Stale: rv.Stale})
	if !strings.Contains(note, "View each again before editing") || !strings.Contains(note, "- src/edited.rs") {
		t.Errorf("resume note: %q", note)
	}
}

func TestTruncatedResultKeepsFileVersion(t *testing.T) {
	out := toolOutcome{OK: true, Result: json.RawMessage(`{"path":"big.txt","version":"abc","content":"…"}`)}
	body, _ := json.Marshal(truncatedResult(out, 1<<20))
	versions := map[string]string{}
	noteFileVersion(versions, core.Operation{Tool: "view", State: core.OpSucceeded, Result: body})
	if versions["big.txt"] != "abc" {
		t.Errorf("truncated view lost its version: %s", body)
	}
}
