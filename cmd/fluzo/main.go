package main

import (
	"os"

	"github.com/josecorral/fluzo/lib/cli/front"
)

func main() { os.Exit(front.Main()) }
