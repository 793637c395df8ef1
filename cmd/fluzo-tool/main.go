package main

import (
	"os"

	"github.com/josecorral/fluzo/lib/cli/tool"
)

func main() { os.Exit(tool.Main()) }
