package tools

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"time"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/tools/gitx"
	"github.com/josecorral/fluzo/lib/tools/proc"
)

// GitResult is what the git tools return.
type GitResult struct {
	Argv []string `json:"argv"`
	proc.Outcome
}

// runGit runs one hardened git command through the process runner, so it
// too gets a closed stdin, its own group, bounded output and a timeout.
func (s *Server) runGit(ctx context.Context, id string, sub ...string) (any, error) {
	git, err := gitx.Prepare(ctx, s.root.Dir(), s.childEnvOrBaseline(), sub...)
	if err != nil {
		return nil, err
	}
	exe, err := proc.LookPath("git", git.Env)
	if err != nil {
		return nil, err
	}
	timeout, _ := effectiveTimeout(ctx, DefaultTimeoutSeconds)
	p, err := proc.Start(proc.Spec{Argv: append([]string{exe}, git.Argv[1:]...), Env: git.Env, Timeout: time.Duration(timeout * float64(time.Second)), Grace: s.opts.Grace, CaptureLimit: s.opts.CaptureLimit})
	if err != nil {
		return nil, err
	}
	return &GitResult{Argv: append([]string{"git"}, sub...), Outcome: s.supervise(ctx, id, p)}, nil
}

type noArgs struct{}

func runGitStatus(ctx context.Context, s *Server, id string, raw json.RawMessage) (any, error) {
	if err := decodeArgs(raw, &noArgs{}); err != nil {
		return nil, err
	}
	// Submodule work trees are not entered: that would run git under the
	// submodule's own configuration, whose drivers were not neutralised.
	return s.runGit(ctx, id, "status", "--short", "--branch", "--untracked-files=all", "--ignore-submodules=dirty")
}

type gitDiffArgs struct {
	Staged bool     `json:"staged,omitempty"`
	Paths  []string `json:"paths,omitempty"`
}

func runGitDiff(ctx context.Context, s *Server, id string, raw json.RawMessage) (any, error) {
	var a gitDiffArgs
	if err := decodeArgs(raw, &a); err != nil {
		return nil, err
	}
	sub := []string{"diff", "--no-ext-diff", "--no-textconv", "--no-color", "--ignore-submodules=dirty"}
	if a.Staged {
		sub = append(sub, "--cached")
	}
	paths, err := s.gitPaths(a.Paths)
	if err != nil {
		return nil, err
	}
	return s.runGit(ctx, id, append(append(sub, "--"), paths...)...)
}

// gitPaths confines pathspecs: each must resolve beneath the root (or not
// exist yet) and is passed literally, never as a pathspec pattern.
func (s *Server) gitPaths(paths []string) ([]string, error) {
	var out []string
	for _, p := range paths {
		rel, err := s.root.Rel(p)
		if err != nil {
			return nil, err
		}
		if _, err := s.root.Lookup(p); err != nil && core.CodeOf(err) != core.CodeNotFound {
			return nil, err
		}
		out = append(out, ":(literal)"+rel)
	}
	return out, nil
}

type gitLogArgs struct {
	N int `json:"n,omitempty"`
}

func runGitLog(ctx context.Context, s *Server, id string, raw json.RawMessage) (any, error) {
	var a gitLogArgs
	if err := decodeArgs(raw, &a); err != nil {
		return nil, err
	}
	n := a.N
	if n <= 0 {
		n = 20
	}
	n = min(n, 500)
	return s.runGit(ctx, id, "log", "--no-ext-diff", "--no-show-signature", "-n", strconv.Itoa(n), "--date=iso-strict", "--format=%H %ad %an%n    %s")
}

type gitShowArgs struct {
	Rev string `json:"rev"`
}

func runGitShow(ctx context.Context, s *Server, id string, raw json.RawMessage) (any, error) {
	var a gitShowArgs
	if err := decodeArgs(raw, &a); err != nil {
		return nil, err
	}
	if err := required("rev", a.Rev); err != nil {
		return nil, err
	}
	if strings.HasPrefix(a.Rev, "-") {
		return nil, core.Errorf(core.CodeInvalidRequest, "rev %q looks like an option", a.Rev).WithHint("give a commit, tag or branch name")
	}
	return s.runGit(ctx, id, "show", "--no-ext-diff", "--no-textconv", "--no-color", "--no-show-signature", a.Rev, "--")
}

type gitAddArgs struct {
	Paths []string `json:"paths"`
}

func runGitAdd(ctx context.Context, s *Server, id string, raw json.RawMessage) (any, error) {
	var a gitAddArgs
	if err := decodeArgs(raw, &a); err != nil {
		return nil, err
	}
	if len(a.Paths) == 0 {
		return nil, core.Errorf(core.CodeInvalidRequest, "paths is empty").WithHint("name the files to stage")
	}
	paths, err := s.gitPaths(a.Paths)
	if err != nil {
		return nil, err
	}
	// Staging runs clean filters. Running them would launch programs the
	// repository chose; skipping them would stage the wrong content (an
	// LFS repository would commit the raw file). Refuse instead.
	drivers, err := gitx.FilterDrivers(ctx, s.root.Dir(), s.childEnvOrBaseline())
	if err != nil {
		return nil, err
	}
	if len(drivers) > 0 {
		return nil, core.Errorf("helper_required", "staging in this repository needs its filter drivers (%s), which git tools never run", strings.Join(drivers, ", ")).
			WithHint("stage through the shell tool (git add ...), which policy reviews as an ordinary process")
	}
	return s.runGit(ctx, id, append([]string{"add", "--"}, paths...)...)
}

type gitCommitArgs struct {
	Message string `json:"message"`
}

func runGitCommit(ctx context.Context, s *Server, id string, raw json.RawMessage) (any, error) {
	var a gitCommitArgs
	if err := decodeArgs(raw, &a); err != nil {
		return nil, err
	}
	if err := required("message", a.Message); err != nil {
		return nil, err
	}
	return s.runGit(ctx, id, "commit", "--no-verify", "--no-gpg-sign", "-m", a.Message)
}

type gitPushArgs struct {
	Remote string `json:"remote,omitempty"`
	Branch string `json:"branch,omitempty"`
}

func runGitPush(ctx context.Context, s *Server, id string, raw json.RawMessage) (any, error) {
	var a gitPushArgs
	if err := decodeArgs(raw, &a); err != nil {
		return nil, err
	}
	sub := []string{"push", "--no-verify"}
	for _, v := range []string{a.Remote, a.Branch} {
		if strings.HasPrefix(v, "-") {
			return nil, core.Errorf(core.CodeInvalidRequest, "%q looks like an option", v).WithHint("give a remote and branch name")
		}
		if v != "" {
			sub = append(sub, v)
		}
	}
	return s.runGit(ctx, id, sub...)
}
