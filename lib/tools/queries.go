package tools

import (
	"context"
	"encoding/json"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/tools/baseline"
)

// Queries are the runtime's own read-only questions about the workspace:
// its baseline, fingerprint, file versions, AGENTS.md files, git state
// and line counts. They travel as {"v":1,"id":"q1","query":"baseline"}
// records, never as tools: the model cannot call them and they are not in
// the schemas. Answering them here, beneath the same confinement as the
// tools, makes the backend the only reader of the workspace, so a remote
// fluzo-tool describes its own tree and never the owner's local one.
type queryFunc func(ctx context.Context, s *Server, args json.RawMessage) (any, error)

// Query names.
const (
	QueryHello        = "hello"
	QueryBaseline     = "baseline"
	QueryFingerprint  = "fingerprint"
	QueryFileVersions = "file_versions"
	QueryAgentsMD     = "agents_md"
	QueryGitState     = "git_state"
	QueryLineCounts   = "line_counts"
)

var queryByName = map[string]queryFunc{
	QueryBaseline:     runBaselineQuery,
	QueryFingerprint:  runFingerprintQuery,
	QueryFileVersions: runFileVersionsQuery,
	QueryAgentsMD:     runAgentsMDQuery,
	QueryGitState:     runGitStateQuery,
	QueryLineCounts:   runLineCountsQuery,
	QueryDiffPatch:    runDiffPatchQuery,
}

// QueryNames lists the read-only queries (hello included).
func QueryNames() []string {
	return []string{QueryHello, QueryBaseline, QueryFingerprint, QueryFileVersions, QueryAgentsMD, QueryGitState, QueryLineCounts, QueryDiffPatch}
}

// handleQuery answers one query. Hello may reconfigure the server, so it
// runs alone; the others share the root with reads.
func (s *Server) handleQuery(ctx context.Context, req Request) Reply {
	if req.Tool != "" {
		return errReply(req.ID, core.Errorf(core.CodeInvalidRequest, "a record names a tool (%q) and a query (%q)", req.Tool, req.Query).
			WithHint("send one or the other"))
	}
	if len(req.Args) == 0 {
		req.Args = json.RawMessage("{}")
	}
	if req.Query == QueryHello {
		s.lock.Lock()
		defer s.lock.Unlock()
		res, err := s.hello(ctx, req.Args)
		if err != nil {
			return errReply(req.ID, err)
		}
		return okReply(req.ID, res)
	}
	q, ok := queryByName[req.Query]
	if !ok {
		return errReply(req.ID, core.Errorf(CodeUnknownQuery, "%q is not a fluzo-tool query", req.Query).
			WithHint("queries are %v", QueryNames()))
	}
	s.lock.RLock()
	defer s.lock.RUnlock()
	res, err := q(ctx, s, req.Args)
	if err != nil {
		return errReply(req.ID, err)
	}
	return okReply(req.ID, res)
}

// CodeUnknownQuery is the error of a query this server does not answer.
const CodeUnknownQuery core.Code = "unknown_query"

func runBaselineQuery(ctx context.Context, s *Server, raw json.RawMessage) (any, error) {
	if err := decodeArgs(raw, &noArgs{}); err != nil {
		return nil, err
	}
	return baseline.Capture(ctx, s.root, s.childEnvOrBaseline())
}

// Fingerprint is the answer to the fingerprint query.
type Fingerprint struct {
	Fingerprint string `json:"fingerprint"`
}

func runFingerprintQuery(ctx context.Context, s *Server, raw json.RawMessage) (any, error) {
	if err := decodeArgs(raw, &noArgs{}); err != nil {
		return nil, err
	}
	fp, err := workspaceFingerprint(ctx, s.root, s.childEnvOrBaseline())
	if err != nil {
		return nil, err
	}
	return Fingerprint{Fingerprint: fp}, nil
}

// FileVersionsArgs name the files whose current versions are asked for.
type FileVersionsArgs struct {
	Paths []string `json:"paths"`
}

// FileVersions maps each asked path to its current version: Version of
// its content, Absent, or UnreadableVersion.
type FileVersions struct {
	Versions map[string]string `json:"versions"`
}

func runFileVersionsQuery(_ context.Context, s *Server, raw json.RawMessage) (any, error) {
	var a FileVersionsArgs
	if err := decodeArgs(raw, &a); err != nil {
		return nil, err
	}
	out := FileVersions{Versions: map[string]string{}}
	for _, p := range a.Paths {
		out.Versions[p] = currentVersion(s.root, p)
	}
	return out, nil
}

func runAgentsMDQuery(ctx context.Context, s *Server, raw json.RawMessage) (any, error) {
	if err := decodeArgs(raw, &noArgs{}); err != nil {
		return nil, err
	}
	files, err := discoverInstructions(ctx, s.root, s.childEnvOrBaseline())
	if err != nil {
		return nil, err
	}
	return AgentsMD{Files: files}, nil
}

func runGitStateQuery(ctx context.Context, s *Server, raw json.RawMessage) (any, error) {
	if err := decodeArgs(raw, &noArgs{}); err != nil {
		return nil, err
	}
	return gitState(ctx, s.root.Dir(), s.childEnvOrBaseline())
}

func runLineCountsQuery(ctx context.Context, s *Server, raw json.RawMessage) (any, error) {
	var a LineCountsArgs
	if err := decodeArgs(raw, &a); err != nil {
		return nil, err
	}
	return lineCounts(ctx, s.root, s.childEnvOrBaseline(), a), nil
}
