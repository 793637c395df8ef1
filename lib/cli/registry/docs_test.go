package registry

import (
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/josecorral/fluzo/lib/cli/clidoc"
	"github.com/josecorral/fluzo/lib/cli/runner"
	"github.com/josecorral/fluzo/lib/core"
)

var update = flag.Bool("update", false, "rewrite man pages and completions")

const repoRoot = "../../.."

// generated returns every documentation file with its expected content.
func generated() map[string]string {
	files := map[string]string{}
	for _, b := range All() {
		cmd := b.Command()
		runner.Prepare(cmd)
		var sections []clidoc.Section
		if b.Sections != nil {
			sections = b.Sections()
		}
		var see []string
		for _, n := range Toolkit {
			if n != b.Name {
				see = append(see, n)
			}
		}
		files["man/man1/"+b.Name+".1"] = clidoc.Man(clidoc.Page{Cmd: cmd, Version: core.Version, Sections: sections, SeeAlso: see})
		comp := Completion(b)
		files["share/completions/"+b.Name+".bash"] = comp.Bash()
		files["share/completions/_"+b.Name] = comp.Zsh()
		files["share/completions/"+b.Name+".fish"] = comp.Fish()
	}
	return files
}

// TestDocsAreCurrent fails when a man page or completion script no longer
// matches the command definitions. Regenerate with scripts/gen-docs.
func TestDocsAreCurrent(t *testing.T) {
	for rel, want := range generated() {
		path := filepath.Join(repoRoot, rel)
		if *update {
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		got, err := os.ReadFile(path)
		if err != nil || string(got) != want {
			t.Errorf("%s is stale or missing; run scripts/gen-docs", rel)
		}
	}
}

func TestEveryBinaryHasMainPackage(t *testing.T) {
	for _, n := range Names() {
		if _, err := os.Stat(filepath.Join(repoRoot, "cmd", n, "main.go")); err != nil {
			t.Errorf("binary %s has no cmd/%s/main.go", n, n)
		}
	}
}

// TestBashCompletionCompletes sources each generated bash script in a real
// bash and asks it to complete the first word.
func TestBashCompletionCompletes(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Fatal("bash is required for this test")
	}
	for _, b := range All() {
		cmd := b.Command()
		runner.Prepare(cmd)
		script := Completion(b).Bash()
		var first string
		for _, c := range cmd.Commands {
			if !c.Hidden {
				first = c.Name
				break
			}
		}
		if first == "" {
			continue
		}
		prefix := first[:1]
		fn := "_" + strings.ReplaceAll(b.Name, "-", "_")
		probe := script + "\nCOMP_WORDS=(" + b.Name + " " + prefix + "); COMP_CWORD=1; " + fn + "; printf '%s\\n' \"${COMPREPLY[@]}\"\n"
		out, err := exec.Command("bash", "-c", probe).CombinedOutput()
		if err != nil {
			t.Fatalf("%s: bash failed: %v\n%s", b.Name, err, out)
		}
		if !strings.Contains(string(out), first) {
			t.Errorf("%s: completing %q did not offer %q: %q", b.Name, prefix, first, out)
		}
	}
}

// TestOtherShellsParse checks zsh and fish scripts with the shells' own
// syntax checkers when they are installed (scripts/test installs them).
func TestOtherShellsParse(t *testing.T) {
	for rel, content := range generated() {
		var shell string
		switch {
		case strings.Contains(rel, "/_"):
			shell = "zsh"
		case strings.HasSuffix(rel, ".fish"):
			shell = "fish"
		default:
			continue
		}
		if _, err := exec.LookPath(shell); err != nil {
			t.Fatalf("%s is required to check %s; scripts/test installs it", shell, rel)
		}
		f := filepath.Join(t.TempDir(), "script")
		os.WriteFile(f, []byte(content), 0o644)
		if out, err := exec.Command(shell, "-n", f).CombinedOutput(); err != nil {
			t.Errorf("%s: %s -n: %v\n%s", rel, shell, err, out)
		}
	}
}

func TestManPagesRenderWithoutWarnings(t *testing.T) {
	if _, err := exec.LookPath("groff"); err != nil {
		t.Fatal("groff is required; scripts/test installs it")
	}
	for rel, content := range generated() {
		if !strings.HasPrefix(rel, "man/") {
			continue
		}
		c := exec.Command("groff", "-man", "-Tutf8", "-ww", "-z")
		c.Stdin = strings.NewReader(content)
		out, err := c.CombinedOutput()
		if err != nil || len(out) > 0 {
			t.Errorf("%s: groff warnings: %v\n%s", rel, err, out)
		}
	}
}
