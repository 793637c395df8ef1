package acp

import (
	"encoding/json"
	"errors"
	"fmt"

	sdk "github.com/coder/acp-go-sdk"
	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/port"
)

// JSON-RPC and ACP error codes used here.
const (
	codeInvalidRequest = -32600
	codeMethodNotFound = -32601
	codeInvalidParams  = -32602
	codeInternal       = -32603
	codeNotFound       = -32002 // ACP: resource not found
)

// invalidParams says which field of which method is wrong.
func invalidParams(method, format string, args ...any) *sdk.RequestError {
	return &sdk.RequestError{Code: codeInvalidParams, Message: fmt.Sprintf("Invalid params for %s: %s", method, fmt.Sprintf(format, args...))}
}

func invalidRequest(format string, args ...any) *sdk.RequestError {
	return &sdk.RequestError{Code: codeInvalidRequest, Message: "Invalid request: " + fmt.Sprintf(format, args...)}
}

// decodeParams reads a method's params. Unknown fields are allowed (ACP
// is extended by adding fields); a wrong type is named by field.
func decodeParams(method string, raw json.RawMessage, v interface{ Validate() error }) *sdk.RequestError {
	if len(raw) == 0 || string(raw) == "null" {
		return invalidParams(method, "params are missing; send an object")
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return invalidParams(method, "%s", core.DescribeJSONError(err))
	}
	if err := v.Validate(); err != nil {
		return invalidParams(method, "%s", err.Error())
	}
	return nil
}

// fluzoError turns a typed Fluzo error (from the port, or the port's
// loss) into a JSON-RPC error that keeps its message, hint and code.
func fluzoError(err error) *sdk.RequestError {
	var re *sdk.RequestError
	if errors.As(err, &re) {
		return re
	}
	var lost *port.LostError
	fe := core.AsError(err)
	if errors.As(err, &lost) {
		fe = lostError(lost)
	}
	code := codeInternal
	switch fe.Code {
	case core.CodeInvalidRequest, core.CodeUsage:
		code = codeInvalidParams
	case core.CodeNotFound:
		code = codeNotFound
	}
	data := map[string]any{"code": fe.Code, "exit_code": core.ExitFor(fe.Code)}
	if fe.Hint != "" {
		data["hint"] = fe.Hint
	}
	msg := fe.Message
	if fe.Hint != "" {
		msg += " (" + fe.Hint + ")"
	}
	return &sdk.RequestError{Code: code, Message: msg, Data: data}
}

// lostError says why the owner went away: serve's last words carry its
// typed error (workspace_busy, configuration_required, ...).
func lostError(lost *port.LostError) *core.Error {
	msg := "the Fluzo owner (fluzo-agent serve) exited"
	if lost.Stderr != "" {
		msg += ": " + lost.Stderr
	}
	e := core.Errorf(lost.Code(), "%s", msg)
	if o, ok := lost.BusyOwner(); ok {
		e = e.WithHint("another process owns this workspace (pid %d); wait for it to finish, or stop it with fluzo-agent cancel", o.PID)
	}
	return e
}
