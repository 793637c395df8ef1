package markdown

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/josecorral/fluzo/lib/tui/theme"
)

// fluzo-tui must not link chroma's lexer registry (it builds every lexer
// at process start, most of the work before the first frame) nor
// goldmark's extension package (linkify's patterns compile at start).
func TestFluzoTUIDoesNotLinkTheLexerRegistry(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "github.com/josecorral/fluzo/cmd/fluzo-tui").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, dep := range strings.Fields(string(out)) {
		if dep == "github.com/alecthomas/chroma/v2/lexers" {
			t.Fatal("cmd/fluzo-tui links github.com/alecthomas/chroma/v2/lexers (its init builds ~280 lexers at every start)")
		}
		if dep == "github.com/yuin/goldmark/extension" {
			t.Fatal("cmd/fluzo-tui links github.com/yuin/goldmark/extension (its linkify patterns compile at every start; gfm.go parses tables, strikethrough and task boxes)")
		}
	}
}

// Every language and alias highlights its sample: each expected piece is
// one span of the expected role, and the spans still spell the code.
func TestEachLanguageHighlights(t *testing.T) {
	samples := []struct {
		names []string
		code  string
		want  map[string]theme.Token
	}{
		{goLang.names, "// c\nfunc f() string { return `raw` + \"s\" }", map[string]theme.Token{"// c": theme.SynComment, "func": theme.SynKeyword, "f": theme.SynFunction, "string": theme.SynType, "`raw`": theme.SynString}},
		{rustLang.names, "fn main() { let v: Vec<u8> = vec![1]; println!(\"{}\", 'x'); } // end", map[string]theme.Token{"fn": theme.SynKeyword, "Vec": theme.SynType, "vec!": theme.SynFunction, "'x'": theme.SynString, "1": theme.SynNumber, "// end": theme.SynComment}},
		{pythonLang.names, "@cached\ndef f(x):\n    \"\"\"doc\"\"\"\n    return len(x)  # n", map[string]theme.Token{"def": theme.SynKeyword, "\"\"\"doc\"\"\"": theme.SynString, "# n": theme.SynComment}},
		{jsLang.names, "const x = await fetch(`u${1}`); /* b */", map[string]theme.Token{"const": theme.SynKeyword, "await": theme.SynKeyword, "fetch": theme.SynFunction, "`u${1}`": theme.SynString, "/* b */": theme.SynComment}},
		{tsLang.names, "interface A { n: number }", map[string]theme.Token{"interface": theme.SynKeyword, "number": theme.SynType}},
		{cLang.names, "#include <stdio.h>\nint main(void) { return 0; }", map[string]theme.Token{"#include <stdio.h>": theme.SynComment, "int": theme.SynKeyword, "main": theme.SynFunction, "0": theme.SynNumber}},
		{cppLang.names, "namespace n { class C {}; }", map[string]theme.Token{"namespace": theme.SynKeyword, "class": theme.SynKeyword}},
		{javaLang.names, "@Override public String f() { return null; }", map[string]theme.Token{"public": theme.SynKeyword, "String": theme.SynType, "null": theme.SynKeyword}},
		{shellLang.names, "if [ -f x ]; then cargo test --quiet \"$HOME\"; fi # done", map[string]theme.Token{"if": theme.SynKeyword, "cargo": theme.SynType, "\"$HOME\"": theme.SynString, "# done": theme.SynComment}},
		{sqlLang.names, "SELECT count(*) FROM t WHERE a = 'x' -- c", map[string]theme.Token{"SELECT": theme.SynKeyword, "FROM": theme.SynKeyword, "'x'": theme.SynString, "-- c": theme.SynComment}},
		{jsonLang.names, `{"k": [1, true, "v"]}`, map[string]theme.Token{`"k"`: theme.SynKeyword, "1": theme.SynNumber, "true": theme.SynKeyword, `"v"`: theme.SynString}},
		{yamlLang.names, "name: x # c\nn: 3", map[string]theme.Token{"name": theme.SynKeyword, "# c": theme.SynComment, "3": theme.SynNumber}},
		{tomlLang.names, "[package]\nname = \"w\" # c", map[string]theme.Token{"[package]": theme.SynKeyword, "name": theme.SynKeyword, `"w"`: theme.SynString, "# c": theme.SynComment}},
		{markupLang.names, `<a href="u">x &amp; 1</a><!-- c -->`, map[string]theme.Token{"<a": theme.SynKeyword, `"u"`: theme.SynString, "<!-- c -->": theme.SynComment}},
		{csharpLang.names, "public async Task<int> F() { return await G(); }", map[string]theme.Token{"public": theme.SynKeyword, "Task": theme.SynType, "F": theme.SynFunction}},
		{rubyLang.names, "def f(x)\n  puts :sym, @v # c\nend", map[string]theme.Token{"def": theme.SynKeyword, "puts": theme.SynType, "# c": theme.SynComment, "end": theme.SynKeyword}},
		{luaLang.names, "local function f() return nil end -- c", map[string]theme.Token{"local": theme.SynKeyword, "function": theme.SynKeyword, "-- c": theme.SynComment}},
		{phpLang.names, "<?php function f($x) { return 'a'; } // c", map[string]theme.Token{"function": theme.SynKeyword, "'a'": theme.SynString, "// c": theme.SynComment}},
		{cssLang.names, ".box { color: #fff; margin: 0 auto; } /* c */", map[string]theme.Token{"color": theme.SynKeyword, "#fff": theme.SynNumber, "/* c */": theme.SynComment}},
		{dockerLang.names, "FROM debian:12\nRUN apt-get update # c", map[string]theme.Token{"FROM": theme.SynKeyword, "RUN": theme.SynKeyword, "# c": theme.SynComment}},
		{makeLang.names, "build: main.go\n\tgo vet -o $@ # c", map[string]theme.Token{"build": theme.SynFunction, "$@": theme.Panel, "# c": theme.SynComment}},
		{diffNames, "--- a\n+++ b\n@@ -1 +1 @@\n-old\n+new\n ctx", map[string]theme.Token{"-old": theme.Error, "+new": theme.Success, "@@ -1 +1 @@": theme.SynKeyword}},
	}
	for _, s := range samples {
		for _, name := range s.names {
			rows := highlight(name, s.code)
			var spelled []string
			got := map[string]theme.Token{}
			for _, row := range rows {
				var b strings.Builder
				for _, sp := range row {
					b.WriteString(sp.Text)
					got[sp.Text] = sp.Token
				}
				spelled = append(spelled, b.String())
			}
			if strings.Join(spelled, "\n") != s.code {
				t.Errorf("%s: the spans spell %q, not the code", name, strings.Join(spelled, "\n"))
			}
			for piece, tok := range s.want {
				if got[piece] != tok {
					t.Errorf("%s: %q is %v, want %v (spans %v)", name, piece, got[piece], tok, rows)
				}
			}
		}
	}
}
