package core

import (
	"errors"
	"net"
	"syscall"
)

// DescribeSystemError names the operating-system condition behind err in
// a few words ("connection refused", "read-only file system"), so messages
// say what the machine refused instead of quoting a wrapped Go error; ""
// when err carries no condition worth naming.
func DescribeSystemError(err error) string {
	var dnsErr *net.DNSError
	var netErr net.Error
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
	case errors.As(err, &dnsErr):
		return "host not found"
	case errors.As(err, &netErr) && netErr.Timeout():
		return "timed out"
	}
	return ""
}
