package acp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/josecorral/fluzo/lib/core"
)

// maxMessage bounds one JSON-RPC line, as the SDK's reader does; a longer
// line is answered with an error and skipped.
const maxMessage = 10 << 20

// lineWriter serializes whole lines to the editor: the SDK's messages and
// the gate's error answers share one stdout.
type lineWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lineWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// rpcError is a JSON-RPC error answer written by the gate itself.
type rpcError struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Error   rpcErrorBody    `json:"error"`
}

type rpcErrorBody struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

// gate reads the editor's lines and passes on only well-formed JSON-RPC
// 2.0 messages. The SDK logs and drops a line it cannot parse, which
// leaves the editor waiting forever; the gate answers it instead, with
// the error JSON-RPC prescribes and a sentence saying what was wrong.
func gate(in io.Reader, pass io.WriteCloser, out io.Writer) error {
	defer pass.Close()
	rd := bufio.NewReaderSize(in, 64<<10)
	for {
		line, tooLong, err := readLine(rd)
		switch {
		case tooLong:
			answer(out, nil, -32600, fmt.Sprintf("Invalid request: the message is over the limit of %d bytes; it was skipped", maxMessage))
		case len(bytes.TrimSpace(line)) > 0:
			if id, code, msg, ok := check(line); !ok {
				answer(out, id, code, msg)
			} else if _, werr := pass.Write(append(line, '\n')); werr != nil {
				return werr
			}
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// readLine reads one line, keeping at most maxMessage bytes of it.
func readLine(rd *bufio.Reader) ([]byte, bool, error) {
	var line []byte
	tooLong := false
	for {
		frag, err := rd.ReadSlice('\n')
		if !tooLong {
			line = append(line, frag...)
			if len(line) > maxMessage {
				tooLong, line = true, nil
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return bytes.TrimRight(line, "\r\n"), tooLong, err
	}
}

// check says whether line is one JSON-RPC 2.0 request, notification or
// response; when not, it returns the id to answer (null when unknown),
// the error code and the message.
func check(line []byte) (json.RawMessage, int, string, bool) {
	if !json.Valid(line) {
		var v any
		err := json.Unmarshal(line, &v)
		return nil, -32700, "Parse error: the message is not JSON (" + core.DescribeJSONError(err) + ")", false
	}
	trimmed := bytes.TrimSpace(line)
	if trimmed[0] == '[' {
		return nil, -32600, "Invalid request: JSON-RPC batches are not part of ACP; send one message per line", false
	}
	if trimmed[0] != '{' {
		return nil, -32600, "Invalid request: a JSON-RPC message must be a JSON object", false
	}
	var m struct {
		JSONRPC *string         `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Method  json.RawMessage `json:"method"`
		Result  json.RawMessage `json:"result"`
		Error   json.RawMessage `json:"error"`
	}
	_ = json.Unmarshal(trimmed, &m)
	id := validID(m.ID)
	switch {
	case m.JSONRPC == nil || *m.JSONRPC != "2.0":
		return id, -32600, `Invalid request: "jsonrpc" must be "2.0"`, false
	case m.ID != nil && id == nil:
		return nil, -32600, "Invalid request: the id must be a string, a number or null", false
	case m.Method != nil:
		var name string
		if json.Unmarshal(m.Method, &name) != nil || name == "" {
			return id, -32600, `Invalid request: "method" must be a non-empty string`, false
		}
	case m.ID == nil:
		return nil, -32600, `Invalid request: the message has neither "method" nor "id"`, false
	case m.Result == nil && m.Error == nil:
		return id, -32600, `Invalid request: a message without "method" must be a response with "result" or "error"`, false
	}
	return nil, 0, "", true
}

// validID returns raw when it is a JSON-RPC id (string, number or null).
func validID(raw json.RawMessage) json.RawMessage {
	t := bytes.TrimSpace(raw)
	if len(t) == 0 {
		return nil
	}
	switch t[0] {
	case '"', '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9', 'n':
		return t
	}
	return nil
}

func answer(out io.Writer, id json.RawMessage, code int, msg string) {
	if id == nil {
		id = json.RawMessage("null")
	}
	b, _ := json.Marshal(rpcError{JSONRPC: "2.0", ID: id, Error: rpcErrorBody{Code: code, Message: msg}})
	out.Write(append(b, '\n'))
}
