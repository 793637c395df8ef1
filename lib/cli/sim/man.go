package sim

import "github.com/josecorral/fluzo/lib/cli/clidoc"

// ManSections adds fluzo-sim's man page sections.
func ManSections() []clidoc.Section {
	return []clidoc.Section{
		{Title: "Endpoints", Body: `GET /v1/models lists the scenario's models. POST /v1/chat/completions
answers chat steps, streamed (SSE) or not. POST /v1/systemone answers Laya
steps. /upstream/MODEL/... behaves like llama-swap: the prefix is stripped, a
missing trailing slash is redirected (301), an unknown model is 404.

GET /_sim/verdict returns the verdict so far; POST /_sim/shutdown returns it
and stops the server. POST /_sim/release?gate=NAME releases the answers a
scenario holds at gate NAME ("hold":"NAME"). A second listener (redirect_target in the listening
record) is the target of scripted redirects and counts every request that
reaches it: a client that follows redirects fails the scenario.`},
		{Title: "Files", Body: `share/scenarios/README.md documents the scenario format (version 1, JSON);
share/scenarios/*.json are runnable examples.`},
		{Title: "Examples", Body: `Serve an example and drive it with curl:

  fluzo-sim serve --scenario share/scenarios/hello.json &
  curl -s http://127.0.0.1:PORT/v1/chat/completions \
    -d '{"model":"sim","messages":[{"role":"user","content":"hi"}]}'
  fluzo-sim verify --url http://127.0.0.1:PORT --stop

Validate a scenario file:

  fluzo-sim check share/scenarios/fix-failing-test.json`},
		{Title: "Environment", Body: `fluzo-sim reads no environment variables. It listens on loopback only.`},
	}
}
