package agent

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The runtime reads the workspace only through its tool backend (issue
// 20): no file of this package opens, stats, lists or runs git on a path
// itself. A new direct read would describe the owner's local tree while
// the task runs on a remote one. The allowed exceptions are named with
// their reason.
func TestNoInProcessWorkspaceReadRemains(t *testing.T) {
	forbidden := map[string]bool{
		"confine.Open": true, "baseline.Capture": true, "gitx.Output": true, "gitx.Run": true, "gitx.Prepare": true,
		"os.ReadFile": true, "os.Open": true, "os.Stat": true, "os.Lstat": true, "os.ReadDir": true, "os.Readlink": true,
		"filepath.Walk": true, "filepath.WalkDir": true, "filepath.Glob": true, "exec.Command": true, "exec.CommandContext": true,
		// Opening for writing, and every other way into a directory
		// tree: an in-process write would change the owner's tree
		// while the task's is elsewhere.
		"os.OpenFile": true, "os.Create": true, "os.WriteFile": true, "os.DirFS": true, "os.OpenRoot": true,
		"os.Remove": true, "os.RemoveAll": true, "os.Rename": true, "os.Mkdir": true, "os.MkdirAll": true,
		"os.Chdir": true, "fs.WalkDir": true, "fs.ReadFile": true, "fs.ReadDir": true, "ioutil.ReadFile": true,
		"ioutil.ReadDir": true, "syscall.Open": true, "unix.Open": true, "unix.Openat2": true, "gitx.TopLevel": true,
	}
	allowed := map[string]string{
		// The owner's own directory (store, control socket), located
		// before any backend exists.
		"gitinspect.go:gitx.TopLevel": "locates the owner's directory",
		// The owner's own .fluzo, checked and rewritten by a settings save.
		"owner_config.go:os.Stat":     "stats the owner's configuration file",
		"owner_config.go:os.OpenFile": "rewrites the owner's configuration file",
		// A benchmark's own output file, named by an environment variable.
		"turnprobe.go:os.OpenFile": "writes the bench turn log",
		"turnprobe.go:os.ReadFile": "reads the process's own /proc/self/status for the bench",
	}
	files, _ := filepath.Glob("*.go")
	scanned := 0
	used := map[string]bool{}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		fset := token.NewFileSet()
		file, err := parser.ParseFile(fset, f, src, 0)
		if err != nil {
			t.Fatal(err)
		}
		scanned++
		ast.Inspect(file, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			pkg, ok := sel.X.(*ast.Ident)
			if !ok {
				return true
			}
			name := pkg.Name + "." + sel.Sel.Name
			if forbidden[name] {
				if _, ok := allowed[f+":"+name]; !ok {
					t.Errorf("%s: %s touches the workspace in process; ask the tool backend (a tools query or tool) instead", fset.Position(sel.Pos()), name)
				}
				used[f+":"+name] = true
			}
			return true
		})
	}
	if scanned < 20 {
		t.Fatalf("scanned only %d files: the test runs in the wrong directory", scanned)
	}
	// An exception nothing needs any more is dropped, so that it cannot
	// later cover a new read in the same file unnoticed.
	for k, why := range allowed {
		if !used[k] {
			t.Errorf("the exception %s (%s) matches no call: remove it", k, why)
		}
	}
}
