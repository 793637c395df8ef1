package testscripts

import (
	"os"
	"sort"
	"strings"
	"testing"
)

// README.md documents every custom script command; a command added in a
// commands_*.go file without its entry fails here.
func TestReadmeListsEveryCommand(t *testing.T) {
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	var names []string
	for name := range Commands() {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if !strings.Contains(readme, "- `"+name+" ") && !strings.Contains(readme, "- `"+name+"`") && !strings.Contains(readme, "/ `"+name) {
			t.Errorf("testscripts/README.md does not document the script command %q: add a '- `%s ARGS` — what it does' entry under 'Custom commands'", name, name)
		}
	}
}
