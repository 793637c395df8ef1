package observe

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/telemetry"
	"github.com/josecorral/fluzo/lib/termsafe"
	"github.com/urfave/cli/v3"
)

// healthReport is the "observe.health" record.
type healthReport struct {
	V            int               `json:"v"`
	Type         string            `json:"type"`
	Archive      string            `json:"archive"`
	Exists       bool              `json:"exists"`
	WriterActive bool              `json:"writer_active"`
	Signals      []signalStats     `json:"signals"`
	Snapshot     *telemetry.Health `json:"snapshot"`
	Export       exportConfig      `json:"export"`
	Notes        []string          `json:"notes,omitempty"`
}

type signalStats struct {
	Signal     string `json:"signal"`
	Segments   int    `json:"segments"`
	Bytes      int64  `json:"bytes"`
	Records    int    `json:"records"`
	Incomplete int    `json:"incomplete"`
	Malformed  int    `json:"malformed"`
}

func healthCommand() *cli.Command {
	return &cli.Command{
		Name:  "health",
		Usage: "report the local telemetry archive, sink queues, drops and exporter state",
		Description: `health reads .fluzodrive/telemetry: segment files and record counts per
signal (traces, metrics, logs), incomplete trailing records left by a crash,
and the health snapshot telemetry writers refresh every metric interval
and at shutdown (per-sink queues, high-water marks, dropped records by
reason, export failures and the last error category). It says whether a
process is writing now; its newest counters appear at its next refresh.`,
		Flags: []cli.Flag{&cli.BoolFlag{Name: "json", Usage: "print one JSON record instead of text"}},
		Action: func(_ context.Context, c *cli.Command) error {
			ws, err := workspace(c)
			if err != nil {
				return err
			}
			export, err := readExportConfig(ws)
			if err != nil {
				return err
			}
			rep, err := buildHealth(driveDir(ws))
			if err != nil {
				return err
			}
			rep.Export = export
			if c.Bool("json") {
				return writeJSON(c.Root().Writer, rep)
			}
			printHealth(c.Root().Writer, rep)
			return nil
		},
	}
}

func buildHealth(drive string) (*healthReport, error) {
	dir := filepath.Join(drive, telemetry.ArchiveDirName)
	rep := &healthReport{V: 1, Type: "observe.health", Archive: dir, Signals: []signalStats{}}
	if fi, err := os.Lstat(dir); err != nil || !fi.IsDir() {
		rep.Notes = append(rep.Notes, "no local telemetry archive yet")
		return rep, nil
	}
	rep.Exists = true
	rep.WriterActive = telemetry.WriterActive(dir)
	segs, err := telemetry.ListSegments(dir)
	if err != nil {
		return nil, core.Wrap(err, core.CodeStorageError, "cannot list "+dir)
	}
	by := map[string]*signalStats{}
	for _, s := range segs {
		st := by[s.Signal]
		if st == nil {
			st = &signalStats{Signal: s.Signal}
			by[s.Signal] = st
		}
		scan, err := telemetry.ScanSegment(s.Path, func(*telemetry.Record) bool { return true })
		if err != nil {
			return nil, core.Wrap(err, core.CodeStorageError, "cannot read "+s.Path)
		}
		st.Segments++
		st.Bytes += s.Bytes
		st.Records += scan.Records
		st.Incomplete += scan.Incomplete
		st.Malformed += scan.Malformed
	}
	for _, st := range by {
		rep.Signals = append(rep.Signals, *st)
		if st.Incomplete > 0 {
			rep.Notes = append(rep.Notes, fmt.Sprintf("%s: %d incomplete trailing record(s) from an interrupted write; kept, not counted", st.Signal, st.Incomplete))
		}
	}
	sort.Slice(rep.Signals, func(i, j int) bool { return rep.Signals[i].Signal < rep.Signals[j].Signal })
	if h, err := telemetry.ReadHealthSnapshot(dir); err == nil {
		rep.Snapshot = h
	} else if !os.IsNotExist(err) {
		rep.Notes = append(rep.Notes, "health snapshot unreadable")
	}
	if rep.WriterActive {
		rep.Notes = append(rep.Notes, "a process is writing telemetry now; the snapshot is as of its last refresh")
	}
	return rep, nil
}

func printHealth(w io.Writer, r *healthReport) {
	fmt.Fprintf(w, "archive: %s\n", r.Archive)
	if !r.Exists {
		fmt.Fprintln(w, "state: no archive")
	}
	fmt.Fprintf(w, "writer active: %v\n", r.WriterActive)
	fmt.Fprintf(w, "export: %s\n", r.Export.describe())
	for _, s := range r.Signals {
		fmt.Fprintf(w, "%-8s %d segment(s), %s, %d record(s), %d incomplete, %d malformed\n", s.Signal, s.Segments, humanBytes(s.Bytes), s.Records, s.Incomplete, s.Malformed)
	}
	if h := r.Snapshot; h != nil {
		fmt.Fprintf(w, "last snapshot: pid %d at %s, state %s, gaps %v, sdk errors %d\n", h.PID, h.TS.Format("2006-01-02T15:04:05Z"), h.State, h.Gaps, h.SDKErrors)
		fmt.Fprintf(w, "  %-16s %-9s %7s %7s %10s %9s %s\n", "SINK", "STATE", "QUEUED", "HIGH", "DELIVERED", "DROPPED", "LAST ERROR")
		for _, s := range h.Sinks {
			fmt.Fprintf(w, "  %-16s %-9s %7d %7d %10d %9d %s\n", s.Name, s.State, s.Queued, s.HighWater, s.Delivered, s.DroppedTotal(), dropDetail(s))
		}
	} else if r.Exists {
		fmt.Fprintln(w, "last snapshot: none (no writer has refreshed one yet)")
	}
	for _, n := range r.Notes {
		fmt.Fprintf(w, "note: %s\n", n)
	}
}

func dropDetail(s telemetry.SinkHealth) string {
	var parts []string
	if s.LastError != "" {
		parts = append(parts, termsafe.Line(s.LastError))
	}
	var reasons []string
	for k, v := range s.Dropped {
		if v > 0 {
			reasons = append(reasons, fmt.Sprintf("%s=%d", k, v))
		}
	}
	sort.Strings(reasons)
	parts = append(parts, reasons...)
	return strings.Join(parts, " ")
}

func humanBytes(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}
