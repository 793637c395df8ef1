package telemetry

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Segment describes one archive file.
type Segment struct {
	Path   string `json:"path"`
	Signal string `json:"signal"`
	Bytes  int64  `json:"bytes"`
}

// ListSegments lists the archive's segments in name (time) order. A
// missing directory is an empty archive.
func ListSegments(dir string) ([]Segment, error) {
	ents, err := os.ReadDir(dir)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []Segment
	for _, e := range ents {
		name := e.Name()
		if !e.Type().IsRegular() || !strings.HasSuffix(name, ".jsonl") {
			continue
		}
		signal, _, ok := strings.Cut(name, "-")
		if !ok {
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue
		}
		out = append(out, Segment{Path: filepath.Join(dir, name), Signal: signal, Bytes: info.Size()})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, nil
}

// ScanStats says what a scan found besides valid records.
type ScanStats struct {
	Records int `json:"records"`
	// Incomplete counts trailing lines without a newline (a crash mid-write):
	// reported, never presented as committed and never deleted.
	Incomplete int `json:"incomplete"`
	// Malformed counts complete lines that are not valid records.
	Malformed int `json:"malformed"`
}

// ScanSegment calls fn for each valid record of one segment. fn may stop
// the scan by returning false.
func ScanSegment(path string, fn func(*Record) bool) (ScanStats, error) {
	var st ScanStats
	f, err := os.OpenFile(path, os.O_RDONLY|syscallNoFollow, 0)
	if err != nil {
		return st, err
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 64<<10)
	for {
		line, err := r.ReadBytes('\n')
		if len(line) > 0 && line[len(line)-1] != '\n' {
			if len(bytes.TrimSpace(line)) > 0 {
				st.Incomplete++
			}
			break
		}
		if len(line) > 0 {
			var rec Record
			if jerr := json.Unmarshal(line, &rec); jerr != nil || rec.V == 0 || rec.Type == "" {
				st.Malformed++
			} else {
				st.Records++
				if !fn(&rec) {
					return st, nil
				}
			}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return st, err
		}
	}
	return st, nil
}

// ScanArchive scans every segment of dir in order.
func ScanArchive(dir string, fn func(*Record) bool) (ScanStats, error) {
	var total ScanStats
	segs, err := ListSegments(dir)
	if err != nil {
		return total, err
	}
	for _, s := range segs {
		stop := false
		st, err := ScanSegment(s.Path, func(r *Record) bool {
			if !fn(r) {
				stop = true
				return false
			}
			return true
		})
		total.Records += st.Records
		total.Incomplete += st.Incomplete
		total.Malformed += st.Malformed
		if err != nil {
			return total, err
		}
		if stop {
			break
		}
	}
	return total, nil
}
