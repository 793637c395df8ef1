package main

import (
	"os"

	"github.com/josecorral/fluzo/lib/cli/observe"
)

func main() { os.Exit(observe.Main()) }
