package agent

import (
	"bufio"
	"bytes"
	"io"
	"time"

	"github.com/josecorral/fluzo/lib/core"
)

// maxCommandLine bounds one port command line. A longer line is answered
// with a typed error and skipped; the commands after it are still read.
const maxCommandLine = 4 << 20

// shutdownBound is how long serve waits, after end of input or a signal,
// for the cancelled task to record its outcome. It covers fluzo-tool's
// graceful stop (SIGTERM, 5 s grace) with room to record the result.
const shutdownBound = 15 * time.Second

// commandLine is one line of the port's input.
type commandLine struct {
	data    []byte
	tooLong bool
	bytes   int // the line's length when it was too long
}

// readCommands sends the lines of in to out and closes out at end of
// input. A line over limit is reported (tooLong) without being kept.
func readCommands(in io.Reader, limit int, out chan<- commandLine) {
	defer close(out)
	rd := bufio.NewReaderSize(in, 64<<10)
	for {
		l, err := readBoundedLine(rd, limit)
		if len(l.data) > 0 || l.tooLong {
			out <- l
		}
		if err != nil {
			return
		}
	}
}

// readBoundedLine reads one line, keeping at most limit bytes of it.
func readBoundedLine(rd *bufio.Reader, limit int) (commandLine, error) {
	var l commandLine
	for {
		frag, err := rd.ReadSlice('\n')
		l.bytes += len(frag)
		if !l.tooLong {
			l.data = append(l.data, frag...)
			if len(bytes.TrimRight(l.data, "\r\n")) > limit {
				l.tooLong, l.data = true, nil
			}
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		l.data = bytes.TrimRight(l.data, "\r\n")
		return l, err
	}
}

// lineTooLong is the answer to an over-long command line.
func lineTooLong(n int) *core.Error {
	return core.Errorf(core.CodeInvalidRequest, "the command line has %d bytes, over the limit of %d bytes (4 MiB); it was skipped and later lines are still read", n, maxCommandLine).
		WithHint("send large content in smaller pieces, or write it to a file and name the file").
		With("reason", "line_too_long").With("limit_bytes", maxCommandLine)
}

// shutdown cancels the running task, as the cancel command does, and
// waits for its result within bound; past the bound the in-flight
// command's process group is force-stopped and serve exits anyway (the
// next owner's recovery marks whatever was not recorded).
func (p *Port) shutdown(bound time.Duration) {
	done := make(chan struct{})
	go func() { p.wg.Wait(); close(done) }()
	deadline := time.After(bound)
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		// Repeated: a task launched just now may not have registered
		// its cancel yet.
		p.Owner.cancelRunning()
		select {
		case <-done:
			return
		case <-tick.C:
		case <-deadline:
			p.Owner.killRunning()
			select {
			case <-done:
			case <-time.After(2 * time.Second):
			}
			return
		}
	}
}
