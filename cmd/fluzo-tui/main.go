package main

import (
	"os"

	"github.com/josecorral/fluzo/lib/cli/tui"
)

func main() { os.Exit(tui.Main()) }
