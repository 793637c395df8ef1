package sim

import (
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/josecorral/fluzo/lib/core"
)

const maxRequestBody = 16 << 20

// route dispatches a request, applying llama-swap's /upstream/<model>/
// behaviour first: the prefix is stripped, a missing trailing slash is
// redirected, an unknown model is 404.
func (s *Server) route(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case "/_sim/verdict":
		writeJSON(w, http.StatusOK, s.Verify())
		return
	case "/_sim/release":
		if r.Method == http.MethodPost && r.URL.Query().Get("gate") != "" {
			gate := r.URL.Query().Get("gate")
			s.Release(gate)
			writeJSON(w, http.StatusOK, map[string]any{"v": 1, "type": "released", "gate": gate})
			return
		}
	case "/_sim/shutdown":
		if r.Method == http.MethodPost {
			// Close cuts every connection, this one too: the reply must be
			// on the wire first. writeJSON sets Content-Length, so after the
			// flush nothing of this response is left to write.
			writeJSON(w, http.StatusOK, s.Verify())
			http.NewResponseController(w).Flush()
			go s.Close()
			return
		}
	}
	s.active.Add(1)
	defer s.active.Done()
	s.mu.Lock()
	s.n++
	rec := &record{V: 1, Type: "request", N: s.n, Method: r.Method, Path: r.URL.Path}
	s.mu.Unlock()
	sw := &statusWriter{ResponseWriter: w}
	defer func() {
		rec.Status = sw.status
		if p := recover(); p != nil {
			rec.Outcome = "disconnected"
			s.writeRecord(rec)
			panic(p)
		}
		s.writeRecord(rec)
	}()
	path := r.URL.Path
	if rest, ok := strings.CutPrefix(path, "/upstream/"); ok {
		model, sub, slash := strings.Cut(rest, "/")
		switch {
		case !slash:
			rec.Outcome = "redirect_slash"
			http.Redirect(sw, r, "/upstream/"+model+"/", http.StatusMovedPermanently)
			return
		case !slices.Contains(s.sc.Models, model):
			rec.Outcome, rec.Why = "unknown_model", fmt.Sprintf("model %q is not served", model)
			writeError(sw, http.StatusNotFound, "model "+model+" not found")
			return
		}
		rec.Upstream, path = model, "/"+sub
	}
	switch {
	case path == "/v1/models" && r.Method == http.MethodGet:
		rec.Outcome = "models"
		s.models(sw)
	case path == "/v1/chat/completions" && r.Method == http.MethodPost:
		s.answer(sw, r, EndpointChat, rec)
	case path == "/v1/systemone" && r.Method == http.MethodPost:
		s.answer(sw, r, EndpointLaya, rec)
	default:
		s.unexpectedRequest(rec, "", "no such endpoint: "+r.Method+" "+path, observed{})
		writeError(sw, http.StatusNotFound, "fluzo-sim: no such endpoint "+r.Method+" "+path)
	}
}

func (s *Server) models(w http.ResponseWriter) {
	data := []any{}
	for _, m := range s.sc.Models {
		data = append(data, map[string]any{"id": m, "object": "model", "created": 1767225600, "owned_by": "fluzo-sim"})
	}
	writeJSON(w, http.StatusOK, map[string]any{"object": "list", "data": data})
}

// answer matches a chat or Laya request against its queue and responds.
func (s *Server) answer(w *statusWriter, r *http.Request, endpoint string, rec *record) {
	rec.Endpoint = endpoint
	body, err := io.ReadAll(io.LimitReader(r.Body, maxRequestBody))
	if err != nil {
		rec.Outcome = "disconnected"
		return
	}
	o, err := observe(body)
	if err != nil {
		s.unexpectedRequest(rec, "", err.Error(), o)
		writeError(w, http.StatusBadRequest, "fluzo-sim: "+err.Error())
		return
	}
	if rec.Upstream != "" && o.Model == "" {
		o.Model = rec.Upstream
	}
	rec.Model, rec.Stream = o.Model, o.Stream
	s.mu.Lock()
	step, expected, why := s.queues[endpoint].take(o)
	s.mu.Unlock()
	if step == nil {
		s.unexpectedRequest(rec, expected, why, o)
		writeJSON(w, http.StatusBadRequest, map[string]any{"error": map[string]any{"message": unexpectedMessage(why, o), "type": ErrorTypeUnexpected, "code": http.StatusBadRequest}})
		return
	}
	rec.Step, rec.Outcome = step.ID, "answered"
	s.enter(o.Model)
	defer s.leave(o.Model)
	s.respond(w, r, step, o, rec)
}

func (s *Server) unexpectedRequest(rec *record, expected, why string, o observed) {
	rec.Outcome, rec.Why = "unexpected", why
	s.mu.Lock()
	defer s.mu.Unlock()
	s.unexpected = append(s.unexpected, Unexpected{N: rec.N, Method: rec.Method, Path: rec.Path,
		Endpoint: rec.Endpoint, ExpectedStep: expected, Why: why, Observed: o})
}

// ErrorTypeUnexpected is the error type of the answer to a request no
// step accepted, so that a client can tell the scenario's refusal from a
// scripted server failure.
const ErrorTypeUnexpected = "fluzo_sim_unexpected"

// maxShownToolResult bounds the tool result quoted in an unexpected
// request's error: enough to see what the model path delivered, little
// enough to stay readable in a result record.
const maxShownToolResult = 240

// unexpectedMessage is the error an unexpected request gets: why no step
// matched and, when the request answers a tool call, the tool result the
// scenario's match was applied to, as the model receives it — the usual
// cause is a content pattern that does not match the real tool output.
func unexpectedMessage(why string, o observed) string {
	msg := "fluzo-sim: unexpected request: " + why
	if t := o.lastTool; t != nil {
		msg += fmt.Sprintf("; the last tool result (tool %q) was: %s", t.name, clipText(t.content, maxShownToolResult))
	}
	return msg
}

func clipText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + fmt.Sprintf("… (%d bytes)", len(s))
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	raw, _ := core.MarshalVerbatim(v)
	raw = append(raw, '\n')
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(raw)))
	w.WriteHeader(status)
	w.Write(raw)
}

func writeError(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, map[string]any{"error": map[string]any{"message": msg, "type": "fluzo_sim", "code": status}})
}

// statusWriter remembers the status for the request log.
type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

func (w *statusWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}
