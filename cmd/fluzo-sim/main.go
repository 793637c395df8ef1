package main

import (
	"os"

	"github.com/josecorral/fluzo/lib/cli/sim"
)

func main() { os.Exit(sim.Main()) }
