package core

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"syscall"
	"testing"
)

func TestDescribeSystemErrorNamesTheCondition(t *testing.T) {
	dns := &net.DNSError{Err: "no such host", Name: "model.invalid", IsNotFound: true}
	for _, c := range []struct {
		err  error
		want string
	}{
		{nil, ""},
		{errors.New("plain"), ""},
		{&os.SyscallError{Syscall: "connect", Err: syscall.ECONNREFUSED}, "connection refused"},
		{&os.PathError{Op: "open", Path: "/x", Err: syscall.EROFS}, "read-only file system"},
		{fmt.Errorf("write: %w", syscall.ENOSPC), "no space left on device"},
		{syscall.EACCES, "permission denied"},
		{syscall.ECONNRESET, "connection reset"},
		{syscall.ENETUNREACH, "host unreachable"},
		{dns, "host not found"},
		{&url.Error{Op: "Post", URL: "http://model.invalid", Err: &net.OpError{Op: "dial", Err: dns}}, "host not found"},
		{errors.Join(errors.New("first"), fmt.Errorf("lookup: %w", dns)), "host not found"},
		{&url.Error{Op: "Post", URL: "http://x", Err: context.DeadlineExceeded}, "timed out"},
		{&net.OpError{Op: "read", Err: os.ErrDeadlineExceeded}, "timed out"},
	} {
		if got := DescribeSystemError(c.err); got != c.want {
			t.Errorf("DescribeSystemError(%v) = %q, want %q", c.err, got, c.want)
		}
	}
}
