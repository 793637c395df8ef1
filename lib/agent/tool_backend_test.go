package agent

import (
	"slices"
	"testing"
)

// A configured backend command gets the variables it needs to connect
// (the ssh agent's socket, the Kubernetes configuration), which the
// scrubbed environment of the local fluzo-tool never holds; nothing else
// the scrub removed comes back.
func TestABackendCommandGetsItsTransportVariablesOnly(t *testing.T) {
	parent := map[string]string{"SSH_AUTH_SOCK": "/run/agent.sock", "KUBECONFIG": "/home/me/.kube/config", "OPENAI_API_KEY": "sk-secret"}
	lookup := func(k string) (string, bool) { v, ok := parent[k]; return v, ok }
	got := withTransportEnv([]string{"PATH=/usr/bin"}, lookup)
	want := []string{"PATH=/usr/bin", "SSH_AUTH_SOCK=/run/agent.sock", "KUBECONFIG=/home/me/.kube/config"}
	if !slices.Equal(got, want) {
		t.Fatalf("env = %q, want %q", got, want)
	}
	if again := withTransportEnv(got, lookup); !slices.Equal(again, want) {
		t.Fatalf("a variable already set was added twice: %q", again)
	}
}
