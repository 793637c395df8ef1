package sim

import (
	"context"
	"io"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/josecorral/fluzo/lib/core"
)

// Options configure Start.
type Options struct {
	// Addr is the listen address; it must be loopback (default 127.0.0.1:0).
	Addr string
	// Log, when set, receives one JSONL record per request.
	Log io.Writer
}

// Server is a running simulator: the main listener plus a second listener
// that only exists to be the target of scripted redirects and must never
// be reached.
type Server struct {
	sc       *Scenario
	srv      *http.Server
	url      string
	target   *redirectTarget
	shutdown chan struct{}
	once     sync.Once
	active   sync.WaitGroup // requests being answered

	mu          sync.Mutex
	queues      map[string]*queue
	n           int
	unexpected  []Unexpected
	inflight    map[string]int
	maxInflight map[string]int
	gates       map[string]chan struct{} // by name; closed when released

	logMu sync.Mutex
	log   io.Writer
}

// Start serves sc on loopback until Close or until ctx ends.
func Start(ctx context.Context, sc *Scenario) (*Server, error) {
	return StartWith(ctx, sc, Options{})
}

// StartWith is Start with options.
func StartWith(ctx context.Context, sc *Scenario, opt Options) (*Server, error) {
	if opt.Addr == "" {
		opt.Addr = "127.0.0.1:0"
	}
	ln, err := listenLoopback(opt.Addr)
	if err != nil {
		return nil, err
	}
	tln, err := listenLoopback("127.0.0.1:0")
	if err != nil {
		ln.Close()
		return nil, err
	}
	return serveOn(ctx, sc, opt, ln, tln), nil
}

// serveOn serves sc on the listeners ln (the API) and tln (the redirect
// target). Tests pass wrapped listeners to slow the connections down.
func serveOn(ctx context.Context, sc *Scenario, opt Options, ln, tln net.Listener) *Server {
	s := &Server{
		sc: sc, url: "http://" + ln.Addr().String(), shutdown: make(chan struct{}),
		queues: newQueues(sc), inflight: map[string]int{}, maxInflight: map[string]int{}, log: opt.Log,
	}
	s.target = startTarget(tln)
	s.srv = &http.Server{Handler: http.HandlerFunc(s.route), ReadHeaderTimeout: 10 * time.Second}
	go s.srv.Serve(ln)
	go func() {
		select {
		case <-ctx.Done():
			s.Close()
		case <-s.shutdown:
		}
	}()
	return s
}

func listenLoopback(addr string) (net.Listener, error) {
	host, _, err := net.SplitHostPort(addr)
	ip := net.ParseIP(host)
	if err != nil || (host != "localhost" && (ip == nil || !ip.IsLoopback())) {
		return nil, core.Errorf(core.CodeUsage, "the simulator listens on loopback only, not %q", addr).
			WithHint("use an address like 127.0.0.1:0")
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, core.Wrap(err, core.CodeFailed, "cannot listen on "+addr).WithHint("choose a free port, or port 0")
	}
	return ln, nil
}

// URL is the server root, e.g. http://127.0.0.1:40123.
func (s *Server) URL() string { return s.url }

// BaseURL is the OpenAI-compatible API root (URL()+"/v1").
func (s *Server) BaseURL() string { return s.url + "/v1" }

// TargetURL is the redirect target's root; it must never be reached.
func (s *Server) TargetURL() string { return s.target.url }

// Done is closed when the server is shut down (Close or POST /_sim/shutdown).
func (s *Server) Done() <-chan struct{} { return s.shutdown }

// Close stops both listeners and aborts requests in flight.
func (s *Server) Close() error {
	s.once.Do(func() {
		close(s.shutdown)
		s.srv.Close()
		s.target.srv.Close()
		// Closed connections cancel the handlers' contexts; wait for them
		// so that no request record follows the verdict.
		done := make(chan struct{})
		go func() { s.active.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
		}
	})
	return nil
}

// record is the JSONL log line written for every request.
type record struct {
	V        int    `json:"v"`
	Type     string `json:"type"`
	N        int    `json:"n"`
	Method   string `json:"method"`
	Path     string `json:"path"`
	Upstream string `json:"upstream,omitempty"`
	Endpoint string `json:"endpoint,omitempty"`
	Model    string `json:"model,omitempty"`
	Stream   bool   `json:"stream,omitempty"`
	Step     string `json:"step,omitempty"`
	Status   int    `json:"status"`
	Outcome  string `json:"outcome"`
	Why      string `json:"why,omitempty"`
}

func (s *Server) writeRecord(r *record) {
	if s.log == nil {
		return
	}
	raw, _ := core.MarshalVerbatim(r)
	s.logMu.Lock()
	defer s.logMu.Unlock()
	s.log.Write(append(raw, '\n'))
}

// enter and leave count overlapping requests per model.
func (s *Server) enter(model string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.inflight[model]++
	if s.inflight[model] > s.maxInflight[model] {
		s.maxInflight[model] = s.inflight[model]
	}
}

func (s *Server) leave(model string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.inflight[model]--
}

// redirectTarget is the second listener. Any request reaching it means a
// client followed a redirect: it is counted with its bytes and credentials.
type redirectTarget struct {
	url         string
	srv         *http.Server
	hits        atomic.Int64
	bytes       atomic.Int64
	credentials atomic.Int64
}

func startTarget(ln net.Listener) *redirectTarget {
	t := &redirectTarget{url: "http://" + ln.Addr().String()}
	t.srv = &http.Server{ReadHeaderTimeout: 10 * time.Second, Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t.hits.Add(1)
		n, _ := io.Copy(io.Discard, r.Body)
		t.bytes.Add(n)
		if r.Header.Get("Authorization") != "" || r.URL.User != nil {
			t.credentials.Add(1)
		}
		http.Error(w, `{"error":{"message":"fluzo-sim: the redirect target must never be reached"}}`, http.StatusBadGateway)
	})}
	go t.srv.Serve(ln)
	return t
}
