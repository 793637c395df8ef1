package testscripts

import (
	"os"
	"os/exec"
	"path/filepath"

	"github.com/rogpeppe/go-internal/testscript"
)

func init() { register("acp-node", acpNode) }

// acpClientDir holds the ACP test client and, once installed, its SDK.
func acpClientDir(repo string) string { return filepath.Join(repo, "tests", "acp-node") }

// acpSDKInstall is the command that installs the ACP test client's SDK
// (scripts/test runs it when the SDK is absent).
const acpSDKInstall = "npm ci --prefix tests/acp-node"

// acpSDKMissing says why the ACP test client cannot run ("" when it can).
func acpSDKMissing(repo string) string {
	if _, err := exec.LookPath("node"); err != nil {
		return "node is not on PATH"
	}
	sdk := filepath.Join(acpClientDir(repo), "node_modules", "@agentclientprotocol", "sdk", "package.json")
	if _, err := os.Stat(sdk); err != nil {
		return "the ACP TypeScript SDK is not installed (" + sdk + ")"
	}
	return ""
}

// acp-node SCENARIO ARGS... runs the ACP test client
// (tests/acp-node/acp_client.mjs, the official TypeScript SDK) with the
// script's environment, so the fluzo-agent it spawns is this build's.
func acpNode(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) < 1 {
		ts.Fatalf("usage: acp-node SCENARIO [ARGS...]")
	}
	repo := ts.Getenv("FLUZO_REPO")
	if why := acpSDKMissing(repo); why != "" {
		ts.Fatalf("acp-node: %s; install it with %s", why, acpSDKInstall)
	}
	err := ts.Exec("node", append([]string{filepath.Join(acpClientDir(repo), "acp_client.mjs")}, args...)...)
	if (err != nil) != neg {
		ts.Fatalf("acp-node %v: %v", args, err)
	}
}
