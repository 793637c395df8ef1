package core

import (
	"errors"
	"reflect"
	"syscall"
)

// DescribeSystemError names the operating-system condition behind err in
// a few words ("connection refused", "read-only file system"), so messages
// say what the machine refused instead of quoting a wrapped Go error; ""
// when err carries no condition worth naming.
//
// The vocabulary does not import net: a binary that links net links cgo's
// resolver and becomes a dynamic executable, and fluzo-tool — started for
// every task and again as the sandbox launcher of every command — pays
// the dynamic loader at each start. Network errors are recognised by
// their shape instead: a timeout by its Timeout method, a failed name
// lookup by its type.
func DescribeSystemError(err error) string {
	var timeout interface{ Timeout() bool }
	switch {
	case err == nil:
		return ""
	case errors.Is(err, syscall.ECONNREFUSED):
		return "connection refused"
	case errors.Is(err, syscall.EROFS):
		return "read-only file system"
	case errors.Is(err, syscall.ENOSPC):
		return "no space left on device"
	case errors.Is(err, syscall.EACCES), errors.Is(err, syscall.EPERM):
		return "permission denied"
	case errors.Is(err, syscall.ECONNRESET):
		return "connection reset"
	case errors.Is(err, syscall.EHOSTUNREACH), errors.Is(err, syscall.ENETUNREACH):
		return "host unreachable"
	case inChain(err, dnsErrorType):
		return "host not found"
	case errors.As(err, &timeout) && timeout.Timeout():
		return "timed out"
	}
	return ""
}

// dnsErrorType is net's *DNSError, named rather than imported.
const dnsErrorType = "*net.DNSError"

// inChain reports whether err, or an error it wraps (through Unwrap or a
// join), has the named type.
func inChain(err error, typeName string) bool {
	for err != nil {
		if reflect.TypeOf(err).String() == typeName {
			return true
		}
		switch u := err.(type) {
		case interface{ Unwrap() []error }:
			for _, e := range u.Unwrap() {
				if inChain(e, typeName) {
					return true
				}
			}
			return false
		case interface{ Unwrap() error }:
			err = u.Unwrap()
		default:
			return false
		}
	}
	return false
}
