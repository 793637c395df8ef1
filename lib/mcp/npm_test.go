package mcp

import (
	"os"
	"path/filepath"
	"testing"
)

// InstallCommand installs the npm MCP servers the tests run, into the
// project-local directory they are looked up in.
const InstallCommand = "scripts/install-mcp-servers"

// npmDir returns the project-local npm directory holding the real MCP
// servers (bin/tools/npm, filled by scripts/install-mcp-servers). Without
// them a plain local run skips, naming the command; under CI (or
// FLUZO_REQUIRE_MCP=1) it fails, so a broken install is never green.
func npmDir(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs("../../bin/tools/npm")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, everythingJS)); err == nil {
		return dir
	}
	msg := "the npm MCP servers are not installed in bin/tools/npm; run " + InstallCommand
	if os.Getenv("CI") != "" || os.Getenv("FLUZO_REQUIRE_MCP") == "1" {
		t.Fatal(msg)
	}
	t.Skip(msg)
	return ""
}

const (
	everythingJS = "node_modules/@modelcontextprotocol/server-everything/dist/index.js"
	filesystemJS = "node_modules/@modelcontextprotocol/server-filesystem/dist/index.js"
)
