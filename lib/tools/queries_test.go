package tools

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/josecorral/fluzo/lib/core"
)

func newRepoClient(t *testing.T, files map[string]string) (*Client, string) {
	t.Helper()
	dir := t.TempDir()
	git(t, dir, "init", "-q", "-b", "main")
	writeFiles(t, dir, files)
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-q", "--allow-empty", "-m", "fixture")
	return newClient(t, dir), dir
}

func TestHelloNamesTheBackendAndItsRepository(t *testing.T) {
	c, dir := newRepoClient(t, map[string]string{"a.txt": "a\n"})
	h, err := c.Hello(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	head := strings.TrimSpace(git(t, dir, "rev-parse", "HEAD"))
	if h.Protocol != ProtocolVersion || h.Version != core.Version || h.Host == "" || h.Root != dir || h.Inode == 0 ||
		h.Repository.TopLevel != dir || h.Repository.Head != head || h.Repository.Branch != "main" {
		t.Fatalf("hello = %+v", h)
	}
}

func TestHelloRefusesAnotherProtocolRevisionNamingBoth(t *testing.T) {
	c, _ := newRepoClient(t, nil)
	t.Setenv(ProtocolEnv, "7")
	_, err := c.Hello(context.Background(), nil)
	fe := core.AsError(err)
	if fe.Code != CodeProtocolMismatch || fe.Details["backend_protocol"] != float64(7) || fe.Details["runtime_protocol"] != float64(ProtocolVersion) ||
		!strings.Contains(fe.Message, "protocol 7") || !strings.Contains(fe.Hint, "same Fluzo release") {
		t.Fatalf("err = %#v", fe)
	}
}

func TestHelloSettingsApplyBeforeTheFirstToolOnly(t *testing.T) {
	c, _ := newRepoClient(t, nil)
	if _, err := c.Hello(context.Background(), &Settings{Env: map[string]string{"FLUZO_HELLO_PROBE": "applied"}}); err != nil {
		t.Fatal(err)
	}
	out := callOK[ProcessResult](t, c, "exec", map[string]any{"argv": []string{"sh", "-c", "echo $FLUZO_HELLO_PROBE"}})
	if !strings.Contains(out.Stdout, "applied") {
		t.Fatalf("the hello's environment did not reach the command: %+v", out)
	}
	_, err := c.Hello(context.Background(), &Settings{CaptureLimit: 10})
	if fe := core.AsError(err); fe.Code != core.CodeInvalidRequest || !strings.Contains(fe.Message, "after 1 tool requests") {
		t.Fatalf("late settings: %#v", fe)
	}
	if _, err := c.Hello(context.Background(), &Settings{InheritEnv: []string{"OPENAI_API_KEY"}}); err == nil {
		t.Fatal("settings inheriting a secret were accepted")
	}
}

func TestQueriesAreNotToolsAndRefuseMixups(t *testing.T) {
	c, _ := newRepoClient(t, nil)
	for _, q := range QueryNames() {
		for _, name := range Names() {
			if q == name {
				t.Fatalf("query %s is also a model-visible tool", q)
			}
		}
		if _, ok := toolByName[q]; ok {
			t.Fatalf("query %s can be called as a tool", q)
		}
	}
	if err := c.Query(context.Background(), "nope", nil, nil); core.CodeOf(err) != CodeUnknownQuery {
		t.Fatalf("unknown query: %v", err)
	}
	s, _ := NewServer(Options{Root: t.TempDir()})
	defer s.Close()
	rep := s.Handle(context.Background(), Request{V: 1, ID: "x", Tool: "view", Query: QueryBaseline})
	if rep.Error == nil || rep.Error.Code != core.CodeInvalidRequest {
		t.Fatalf("tool and query together: %+v", rep)
	}
}

func TestWorkspaceQueriesDescribeTheServersTree(t *testing.T) {
	c, _ := newRepoClient(t, map[string]string{"AGENTS.md": "rules\n", "sub/AGENTS.md": "sub rules\n", "a.txt": "one\n"})
	ctx := context.Background()
	var st GitState
	if err := c.Query(ctx, QueryGitState, nil, &st); err != nil || st.Branch != "main" || len(st.Head) != 40 || st.Total != 1 {
		t.Fatalf("git_state = %+v, %v", st, err)
	}
	var md AgentsMD
	if err := c.Query(ctx, QueryAgentsMD, nil, &md); err != nil || len(md.Files) != 2 || md.Files[1].Scope != "sub" {
		t.Fatalf("agents_md = %+v, %v", md, err)
	}
	var fv FileVersions
	if err := c.Query(ctx, QueryFileVersions, FileVersionsArgs{Paths: []string{"a.txt", "gone.txt"}}, &fv); err != nil ||
		fv.Versions["a.txt"] != Version([]byte("one\n")) || fv.Versions["gone.txt"] != Absent {
		t.Fatalf("file_versions = %+v, %v", fv, err)
	}
	var before, after Fingerprint
	c.Query(ctx, QueryFingerprint, nil, &before)
	callOK[any](t, c, "write", map[string]any{"path": "a.txt", "content": "two\n", "expect_version": Version([]byte("one\n"))})
	c.Query(ctx, QueryFingerprint, nil, &after)
	if before.Fingerprint == "" || before.Fingerprint == after.Fingerprint {
		t.Fatalf("fingerprint did not follow the edit: %q then %q", before.Fingerprint, after.Fingerprint)
	}
	var lc LineCounts
	if err := c.Query(ctx, QueryLineCounts, LineCountsArgs{Head: st.Head, Paths: []string{"a.txt"}}, &lc); err != nil ||
		*lc.Counts["a.txt"].Added != 1 || *lc.Counts["a.txt"].Removed != 1 {
		t.Fatalf("line_counts = %+v, %v", lc, err)
	}
}

// A fluzo-tool from before the handshake refuses the unknown "query"
// field: the runtime names that as protocol revision 1.
func TestHelloToAServerWithoutTheHandshakeIsAMismatch(t *testing.T) {
	reqR, reqW := io.Pipe()
	repR, repW := io.Pipe()
	go func() {
		rd := bufio.NewReader(reqR)
		line, _ := rd.ReadBytes('\n')
		var in struct{ ID string }
		json.Unmarshal(line, &in)
		fmt.Fprintf(repW, `{"v":1,"type":"error","re":%q,"ok":false,"error":{"code":"invalid_request","message":"request line 1: unknown field \"query\""}}`+"\n", in.ID)
		io.Copy(io.Discard, reqR)
		repW.Close()
	}()
	c := pipeClient(reqW, repR, nil)
	defer c.Close()
	_, err := c.Hello(context.Background(), nil)
	fe := core.AsError(err)
	if fe.Code != CodeProtocolMismatch || fe.Details["backend_protocol"] != 1 {
		t.Fatalf("err = %#v", fe)
	}
}

// One runtime session per root: a second hello on the same root, from
// another server, is workspace_busy until the first server closes.
func TestASecondRuntimeSessionOnTheSameRootIsBusy(t *testing.T) {
	_, dir := newRepoClient(t, nil)
	first, err := NewLocal(context.Background(), Options{Root: dir})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := first.Hello(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	second := newClient(t, dir)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	done := make(chan error, 1)
	go func() { _, err := second.Hello(ctx, nil); done <- err }()
	select {
	case err := <-done:
		t.Fatalf("the second session was answered while the first held the root: %v", err)
	case <-time.After(500 * time.Millisecond):
	}
	first.Close()
	if err := <-done; err != nil {
		t.Fatalf("the second session was refused after the first closed: %v", err)
	}
}

// AGENTS.md files are found wherever git would show them — tracked at any
// depth, or untracked and not ignored — and nothing else named alike.
func TestAgentsMDFoundAtEveryDepthTrackedOrNot(t *testing.T) {
	c, dir := newRepoClient(t, map[string]string{"AGENTS.md": "top\n", "deep/a/b/AGENTS.md": "deep\n", ".gitignore": "ignored/\n",
		"agents.md": "lower\n", "x/XAGENTS.md": "x\n", "x/AGENTS.md.bak": "bak\n"})
	writeFiles(t, dir, map[string]string{"sub/AGENTS.md": "untracked\n", "ignored/AGENTS.md": "ignored\n"})
	var md AgentsMD
	if err := c.Query(context.Background(), QueryAgentsMD, nil, &md); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range md.Files {
		got = append(got, f.Path)
	}
	if want := "AGENTS.md sub/AGENTS.md deep/a/b/AGENTS.md"; strings.Join(got, " ") != want {
		t.Fatalf("found %v, want %s", got, want)
	}
}
