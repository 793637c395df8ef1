package sim

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"
)

// respond writes step's scripted answer.
func (s *Server) respond(w *statusWriter, r *http.Request, step *Step, o observed, rec *record) {
	ctx := r.Context()
	resp := &step.Respond
	if !wait(ctx, resp.HeaderDelayMS) || !s.passGate(ctx, resp.Hold) {
		return
	}
	switch {
	case resp.Redirect != nil:
		loc := strings.NewReplacer("{target}", s.target.url, "{self}", s.url,
			"{target_host}", strings.TrimPrefix(s.target.url, "http://")).Replace(resp.Redirect.Location)
		w.Header().Set("Location", loc)
		w.WriteHeader(resp.Redirect.Status)
		fmt.Fprintf(w, "redirecting\n")
		return
	case resp.Status != 0:
		if resp.RetryAfter != "" {
			w.Header().Set("Retry-After", resp.RetryAfter)
		}
		if resp.Body != "" {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(resp.Status)
			w.Write([]byte(resp.Body))
			return
		}
		writeError(w, resp.Status, fmt.Sprintf("fluzo-sim: scripted HTTP %d (step %s)", resp.Status, step.ID))
		return
	}
	id := fmt.Sprintf("chatcmpl-sim-%d", rec.N)
	model := o.Model
	switch {
	case step.Endpoint == EndpointLaya:
		s.writeBody(w, resp, compactJSON(resp.Laya))
	case o.Stream:
		s.stream(ctx, w, resp, streamChunks(id, model, resp))
	default:
		s.writeBody(w, resp, completion(id, model, resp))
	}
}

// writeBody writes a non-streamed JSON answer, honouring faults.
func (s *Server) writeBody(w *statusWriter, resp *Respond, body []byte) {
	w.Header().Set("Content-Type", "application/json")
	switch resp.Fault {
	case "malformed_json":
		w.WriteHeader(http.StatusOK)
		w.Write(body[:len(body)/2])
	case "disconnect":
		w.Header().Set("Content-Length", fmt.Sprint(len(body)))
		w.WriteHeader(http.StatusOK)
		w.Write(body[:len(body)/2])
		w.Flush()
		panic(http.ErrAbortHandler)
	default:
		w.WriteHeader(http.StatusOK)
		w.Write(body)
	}
}

// stream writes SSE chunks with the scripted delays and faults.
func (s *Server) stream(ctx context.Context, w *statusWriter, resp *Respond, chunks []string) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	w.Flush()
	if !keepAlive(ctx, w, resp.FirstDelayMS, resp.KeepAliveMS) {
		return
	}
	for i, c := range chunks {
		if resp.Fault != "" && i == resp.FaultAfter {
			if resp.Fault == "malformed_json" {
				fmt.Fprintf(w, "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\n\n")
				w.Flush()
				return
			}
			panic(http.ErrAbortHandler)
		}
		if resp.StallMS > 0 && i == resp.StallAfter && i > 0 {
			if !keepAlive(ctx, w, resp.StallMS, resp.KeepAliveMS) {
				return
			}
		}
		if i > 0 && !wait(ctx, resp.ChunkDelayMS) {
			return
		}
		fmt.Fprintf(w, "data: %s\n\n", c)
		w.Flush()
	}
}

// keepAlive waits ms, sending SSE comments every interval meanwhile.
func keepAlive(ctx context.Context, w *statusWriter, ms, every int) bool {
	if ms <= 0 {
		return true
	}
	end := time.Now().Add(time.Duration(ms) * time.Millisecond)
	for {
		left := time.Until(end)
		if left <= 0 {
			return true
		}
		step := left
		if every > 0 {
			step = min(step, time.Duration(every)*time.Millisecond)
		}
		if !wait(ctx, int(step/time.Millisecond)+1) {
			return false
		}
		if every > 0 {
			fmt.Fprintf(w, ": keep-alive\n\n")
			w.Flush()
		}
	}
}

// wait sleeps ms unless the request ends first.
func wait(ctx context.Context, ms int) bool {
	if ms <= 0 {
		return true
	}
	t := time.NewTimer(time.Duration(ms) * time.Millisecond)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

func compactJSON(raw []byte) []byte {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return raw
	}
	return b.Bytes()
}
