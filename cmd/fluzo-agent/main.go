package main

import (
	"os"

	"github.com/josecorral/fluzo/lib/cli/agent"
)

func main() { os.Exit(agent.Main()) }
