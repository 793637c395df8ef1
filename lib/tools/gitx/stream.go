package gitx

import (
	"bufio"
	"context"
	"errors"
	"io"
	"os/exec"
	"strings"
	"syscall"

	"github.com/josecorral/fluzo/lib/core"
)

// ErrStop, returned by a Stream callback, stops reading git's output
// early; it is not an error of git's.
var ErrStop = errors.New("stream stopped")

// Stream runs a hardened git command and hands its stdout to each one line
// at a time (without the newline), so an output of any size is read in
// memory bounded by maxLine: a longer line is cut there, its rest read
// and dropped, and clipped says so. Returning ErrStop ends the command.
// The exit code is git's answer; the error is non-nil only when git could
// not be prepared, run or read.
func Stream(ctx context.Context, dir string, baseline []string, maxLine int, each func(line []byte, clipped bool) error, sub ...string) (int, error) {
	c, err := Prepare(ctx, dir, baseline, sub...)
	if err != nil {
		return 0, err
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, c.Argv[0], c.Argv[1:]...)
	cmd.Env = c.Env
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	var errb strings.Builder
	cmd.Stderr = &limitedWriter{w: &errb, left: 4096}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return 0, core.Wrap(err, core.CodeFailed, "git's output could not be read")
	}
	if err := cmd.Start(); err != nil {
		return 0, core.Wrap(err, core.CodeConfigurationRequired, "git could not be run").
			WithHint("install git; Fluzo relies on it to inspect the workspace")
	}
	rerr := eachLine(bufio.NewReaderSize(out, maxLine), maxLine, each)
	if rerr != nil {
		cancel() // stop git writing into a pipe nobody reads
		io.Copy(io.Discard, out)
	}
	werr := cmd.Wait()
	var ee *exec.ExitError
	switch {
	case rerr != nil && !errors.Is(rerr, ErrStop):
		return 0, rerr
	case rerr != nil:
		return 0, nil
	case ctx.Err() != nil:
		return 0, core.Wrap(ctx.Err(), core.CodeFailed, "git "+subName(c.Argv)+" did not finish").
			WithHint("check the repository; git inspection is bounded to %s", timeout)
	case errors.As(werr, &ee):
		return ee.ExitCode(), nil
	case werr != nil:
		return 0, core.Wrap(werr, core.CodeFailed, "git "+subName(c.Argv)+" failed: "+strings.TrimSpace(errb.String()))
	}
	return 0, nil
}

// eachLine reads r line by line; a line longer than maxLine is handed
// over cut, and the rest of it skipped.
func eachLine(r *bufio.Reader, maxLine int, each func([]byte, bool) error) error {
	held := make([]byte, 0, maxLine)
	for {
		line, err := r.ReadSlice('\n')
		clipped := false
		if errors.Is(err, bufio.ErrBufferFull) {
			// The reader's buffer is reused by the next read: keep the
			// head of the line before skipping its rest.
			clipped, held = true, append(held[:0], line[:min(len(line), maxLine)]...)
			for errors.Is(err, bufio.ErrBufferFull) {
				_, err = r.ReadSlice('\n')
			}
			line = held
		}
		if len(line) > 0 || err == nil {
			if cerr := each(trimNewline(line), clipped); cerr != nil {
				return cerr
			}
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return core.Wrap(err, core.CodeFailed, "git's output could not be read")
		}
	}
}

func trimNewline(b []byte) []byte {
	if n := len(b); n > 0 && b[n-1] == '\n' {
		return b[:n-1]
	}
	return b
}

// limitedWriter keeps the first left bytes of git's stderr for the error.
type limitedWriter struct {
	w    io.Writer
	left int
}

func (l *limitedWriter) Write(p []byte) (int, error) {
	if l.left > 0 {
		k := min(len(p), l.left)
		l.w.Write(p[:k])
		l.left -= k
	}
	return len(p), nil
}
