package main

import (
	"os"

	storecli "github.com/josecorral/fluzo/lib/cli/store"
)

func main() { os.Exit(storecli.Main()) }
