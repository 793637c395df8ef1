package provider_test

import (
	"context"
	"os"
	"os/exec"
	"testing"
)

// TestProxyVariablesNeverRouteRequests: Go's own proxy support skips
// loopback hosts, so TestEnvironmentProxyIsIgnored cannot notice a client
// that honours HTTP_PROXY. Here the endpoint has a non-loopback name
// (which does not resolve) and the proxy variables point at a live
// listener: a client taking its proxy from the environment would reach
// that listener; ours must fail to connect and leave it untouched.
//
// net/http reads the proxy variables once per process, so the check runs
// in a fresh test process where nothing has consulted them yet.
func TestProxyVariablesNeverRouteRequests(t *testing.T) {
	if os.Getenv("FLUZO_PROXY_CHILD") != "1" {
		cmd := exec.Command(os.Args[0], "-test.run=^TestProxyVariablesNeverRouteRequests$", "-test.count=1", "-test.v")
		cmd.Env = append(os.Environ(), "FLUZO_PROXY_CHILD=1")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("proxy check in a fresh process failed: %v\n%s", err, out)
		}
		return
	}
	s := startSim(t, oneStep(`{"text":"via proxy"}`))
	for _, k := range []string{"HTTP_PROXY", "http_proxy", "HTTPS_PROXY", "https_proxy", "ALL_PROXY", "all_proxy"} {
		t.Setenv(k, s.TargetURL())
	}
	t.Setenv("NO_PROXY", "")
	t.Setenv("no_proxy", "")
	resp, err := client(t, "http://fluzo-provider.invalid/v1", nil).Chat(context.Background(), chatReq(true), nil)
	if err == nil {
		t.Fatalf("the request reached a server through the environment's proxy: %+v", resp)
	}
	if v := s.Verify(); v.RedirectTarget.Hits != 0 {
		t.Fatalf("the proxy listener received %d requests; proxy variables must be ignored", v.RedirectTarget.Hits)
	}
}
