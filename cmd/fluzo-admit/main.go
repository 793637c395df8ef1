package main

import (
	"os"

	"github.com/josecorral/fluzo/lib/cli/admit"
)

func main() { os.Exit(admit.Main()) }
