package provider

import (
	"bufio"
	"bytes"
	"errors"
	"io"
)

// sseReader splits a text/event-stream body into events. It accepts
// "data:" with or without the space, CRLF line ends, comments (":" lines,
// used as keep-alives), multi-line data and ignores other fields. Lines
// are bounded: a longer line is a protocol error, never a growing buffer.
type sseReader struct {
	r     *bufio.Reader
	max   int
	line  []byte
	data  []byte
	event string
}

var errLineTooLong = errors.New("an event-stream line exceeds the line limit")

func newSSEReader(r io.Reader, maxLine int) *sseReader {
	return &sseReader{r: bufio.NewReaderSize(r, 32<<10), max: maxLine}
}

// next returns the data of the next event and its "event:" name. The
// returned slice is valid until the following call. io.EOF ends the stream
// (a final event without its blank line is still delivered first).
func (s *sseReader) next() (data []byte, event string, err error) {
	s.data = s.data[:0]
	s.event = ""
	have := false
	for {
		line, err := s.readLine()
		if err != nil {
			if err == io.EOF && have {
				return s.data, s.event, nil
			}
			return nil, "", err
		}
		if len(line) == 0 {
			if have {
				return s.data, s.event, nil
			}
			continue
		}
		field, value := splitField(line)
		switch string(field) {
		case "data":
			if have {
				s.data = append(s.data, '\n')
			}
			s.data = append(s.data, value...)
			have = true
			if len(s.data) > s.max {
				return nil, "", errLineTooLong
			}
		case "event":
			s.event = string(value)
		}
	}
}

// readLine reads one line without its terminator, bounded by max.
func (s *sseReader) readLine() ([]byte, error) {
	s.line = s.line[:0]
	for {
		frag, err := s.r.ReadSlice('\n')
		if len(s.line)+len(frag) > s.max+2 {
			return nil, errLineTooLong
		}
		s.line = append(s.line, frag...)
		switch {
		case err == nil:
			return trimEOL(s.line), nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case err == io.EOF && len(s.line) > 0:
			return trimEOL(s.line), nil
		default:
			return nil, err
		}
	}
}

func trimEOL(b []byte) []byte {
	b = bytes.TrimSuffix(b, []byte("\n"))
	return bytes.TrimSuffix(b, []byte("\r"))
}

// splitField splits "name: value" per the event-stream rules: one space
// after the colon is dropped; a line starting with ":" is a comment.
func splitField(line []byte) (field, value []byte) {
	i := bytes.IndexByte(line, ':')
	if i < 0 {
		return line, nil
	}
	value = line[i+1:]
	if len(value) > 0 && value[0] == ' ' {
		value = value[1:]
	}
	return line[:i], value
}
