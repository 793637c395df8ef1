package discover

import (
	"bufio"
	"context"
	"io"
	"os"
	"path"
	"sort"
	"strings"

	"github.com/josecorral/fluzo/lib/tools/confine"
	"github.com/josecorral/fluzo/lib/tools/gitx"
)

// MaxWalk bounds how many paths a walk of a non-repository root visits.
const MaxWalk = 200000

// Files returns the root-relative paths discovery may show, sorted. Inside
// a git work tree the list comes from "git ls-files -co --exclude-standard"
// run with every helper disabled; elsewhere the root is walked through
// confined directory handles honouring .gitignore files. complete is false
// when the walk hit MaxWalk.
func Files(ctx context.Context, root *confine.Root, env []string) (files []string, complete bool) {
	files, complete = listed(ctx, root, env)
	out := files[:0]
	for _, f := range files {
		if !Protected(f) && !Secret(f) && !confine.IsTemp(f) {
			out = append(out, f)
		}
	}
	sort.Strings(out)
	return out, complete
}

// Temps returns the reserved temporary files (confine.TempPrefix) that a
// listing like Files' would show: the leftovers of interrupted writes
// that git status or a directory listing would otherwise see.
func Temps(ctx context.Context, root *confine.Root, env []string) []string {
	// Only temporary names are asked of git: every server start runs this,
	// and the whole tree's listing would be read (and each name checked
	// beneath the root) to keep a handful.
	files, _ := listed(ctx, root, env, ":(glob)**/"+confine.TempPrefix+"*")
	var out []string
	for _, f := range files {
		if confine.IsTemp(f) && !Protected(f) {
			out = append(out, f)
		}
	}
	return out
}

// listed is Files' listing; pathspecs, when given, narrow git's (a walk
// outside a repository lists everything, which callers filter anyway).
func listed(ctx context.Context, root *confine.Root, env []string, pathspecs ...string) ([]string, bool) {
	if list, ok := gitFiles(ctx, root.Dir(), env, pathspecs); ok {
		// git walks by path and follows a directory swapped for a symlink
		// mid-walk: only names that exist beneath the root are kept.
		return root.Present(list), true
	}
	return walk(root)
}

func gitFiles(ctx context.Context, dir string, env []string, pathspecs []string) ([]string, bool) {
	args := []string{"ls-files", "-co", "--exclude-standard", "-z"}
	if len(pathspecs) > 0 {
		args = append(append(args, "--"), pathspecs...)
	}
	out, err := gitx.Output(ctx, dir, env, args...)
	if err != nil {
		return nil, false
	}
	var files []string
	for _, f := range strings.Split(string(out), "\x00") {
		if f != "" {
			files = append(files, f)
		}
	}
	return files, true
}

// ignoreRule is one line of a .gitignore file.
type ignoreRule struct {
	base     string // directory of the .gitignore, "" for the root
	pattern  string
	negate   bool
	dirOnly  bool
	anchored bool
}

func (r ignoreRule) matches(rel string, isDir bool) bool {
	if r.dirOnly && !isDir {
		return false
	}
	sub := rel
	if r.base != "" {
		if !strings.HasPrefix(rel, r.base+"/") {
			return false
		}
		sub = strings.TrimPrefix(rel, r.base+"/")
	}
	if r.anchored {
		return Match(r.pattern, sub)
	}
	ok, _ := path.Match(r.pattern, path.Base(sub))
	return ok
}

func parseIgnore(base string, rd io.Reader) []ignoreRule {
	var rules []ignoreRule
	sc := bufio.NewScanner(io.LimitReader(rd, 1<<20))
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), " \r")
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		r := ignoreRule{base: base}
		if strings.HasPrefix(line, "!") {
			r.negate, line = true, line[1:]
		}
		line = strings.TrimPrefix(line, "\\")
		if strings.HasSuffix(line, "/") {
			r.dirOnly, line = true, strings.TrimSuffix(line, "/")
		}
		if strings.Contains(line, "/") {
			r.anchored, line = true, strings.TrimPrefix(line, "/")
		}
		if strings.HasPrefix(line, "**/") {
			r.anchored = true
		}
		r.pattern = line
		rules = append(rules, r)
	}
	return rules
}

func ignored(rules []ignoreRule, rel string, isDir bool) bool {
	out := false
	for _, r := range rules {
		if r.matches(rel, isDir) {
			out = !r.negate
		}
	}
	return out
}

// walk lists regular files beneath the root without following symlinked
// directories, skipping protected areas and ignored paths.
func walk(root *confine.Root) ([]string, bool) {
	var files []string
	visited := 0
	var rules []ignoreRule
	var visit func(dir string) bool
	visit = func(dir string) bool {
		f, _, err := root.OpenDir(dir)
		if err != nil {
			return true
		}
		ents, _ := f.ReadDir(-1)
		f.Close()
		if data, err := readIgnore(root, dir); err == nil {
			rules = append(rules, parseIgnore(strings.TrimPrefix(dir, "."), strings.NewReader(data))...)
		}
		sort.Slice(ents, func(i, j int) bool { return ents[i].Name() < ents[j].Name() })
		for _, e := range ents {
			if visited++; visited > MaxWalk {
				return false
			}
			rel := path.Join(dir, e.Name())
			if Protected(rel) || ignored(rules, rel, e.IsDir()) {
				continue
			}
			switch {
			case e.IsDir():
				if !visit(rel) {
					return false
				}
			case e.Type().IsRegular() || e.Type()&os.ModeSymlink != 0:
				files = append(files, rel)
			}
		}
		return true
	}
	complete := visit(".")
	return files, complete
}

func readIgnore(root *confine.Root, dir string) (string, error) {
	f, _, err := root.OpenRead(path.Join(dir, ".gitignore"))
	if err != nil {
		return "", err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, 1<<20))
	return string(b), err
}
