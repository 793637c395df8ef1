package markdown

import (
	"strings"
	"testing"

	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
)

// shape prints the block and inline structure the renderer walks: kinds,
// alignments, checkbox states and leaf text.
func shape(src string) string {
	doc, _ := parse([]byte(src))
	var b strings.Builder
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			if n.Type() != ast.TypeInline {
				b.WriteString(")")
			}
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.Text:
			b.WriteString("'" + string(n.Segment.Value([]byte(src))) + "'")
		case *east.TaskCheckBox:
			if n.IsChecked {
				b.WriteString("[x]")
			} else {
				b.WriteString("[ ]")
			}
		case *east.Strikethrough:
			b.WriteString("~")
		case *east.TableCell:
			b.WriteString("(" + n.Alignment.String() + " ")
			return ast.WalkContinue, nil
		case *ast.CodeSpan:
			b.WriteString("`")
		}
		if n.Type() != ast.TypeInline {
			if _, ok := n.(*east.TableCell); !ok {
				b.WriteString("(" + n.Kind().String() + " ")
			}
		}
		return ast.WalkContinue, nil
	})
	return b.String()
}

func TestTablesStrikethroughAndTaskBoxes(t *testing.T) {
	cases := []struct{ name, src, want string }{
		{"aligned table",
			"| a | b | c |\n|:--|--:|:-:|\n| 1 | 2 | 3 |\n",
			"(Document (Table (TableHeader (left 'a')(right 'b')(center 'c'))(TableRow (left '1')(right '2')(center '3'))))"},
		{"no outer pipes, short and long rows cut or padded",
			"a | b\n--- | ---\n1\n1 | 2 | 3\n",
			"(Document (Table (TableHeader (none 'a')(none 'b'))(TableRow (none '1')(none ))(TableRow (none '1')(none '2'))))"},
		{"escaped pipe stays in its cell",
			"| x | y |\n|---|---|\n| a \\| b | c |\n",
			"(Document (Table (TableHeader (none 'x')(none 'y'))(TableRow (none 'a \\| b')(none 'c'))))"},
		{"lines before the header stay a paragraph",
			"intro line\n| h |\n|---|\n| v |\n",
			"(Document (Paragraph 'intro line')(Table (TableHeader (none 'h'))(TableRow (none 'v'))))"},
		{"header and delimiter widths differ: no table",
			"| a | b |\n|---|\n",
			"(Document (Paragraph '| a | b |''|---|'))"},
		{"a dash line under text is a setext heading",
			"Title\n---\n",
			"(Document (Heading 'Title'))"},
		{"code span in a cell",
			"| f |\n|---|\n| `x` |\n",
			"(Document (Table (TableHeader (none 'f'))(TableRow (none `'x'))))"},
		{"one and two tildes strike",
			"~a~ and ~~b~~\n",
			"(Document (Paragraph ~'a'' and '~'b'))"},
		{"unbalanced or triple tildes do not",
			"~~a~ and ~~~c~~~\n",
			"(Document (Paragraph '~~''a~'' and ~~~c~~''~'))"},
		{"task boxes only open a list item",
			"- [x] done\n- [ ] open\n- [y] not a box\n\n[x] not in a list\n",
			"(Document (List (ListItem (TextBlock [x]'done'))(ListItem (TextBlock [ ]'open'))(ListItem (TextBlock '[''y''] not a box')))(Paragraph '[''x''] not in a list'))"},
	}
	for _, c := range cases {
		if got := shape(c.src); got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.name, got, c.want)
		}
	}
}
