package storecli

import (
	"fmt"
	"io"

	"github.com/josecorral/fluzo/lib/termsafe"
)

// printDetail adds an indented line of failure detail under a row.
func printDetail(w io.Writer, label, detail string) {
	if detail != "" {
		fmt.Fprintf(w, "            %s %s\n", label, termsafe.Line(detail))
	}
}
