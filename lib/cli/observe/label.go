package observe

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/store"
	"github.com/urfave/cli/v3"
)

// Label is a human label for one observation. Labels are ground truth,
// kept apart from the observation and the runtime's action; every label
// is appended, and the latest one for an observation is current.
type Label struct {
	V            int       `json:"v"`
	Type         string    `json:"type"` // laya.label
	Observation  string    `json:"observation"`
	Label        string    `json:"label"`
	Annotator    string    `json:"annotator"`
	Source       string    `json:"source"`
	LabelVersion int       `json:"label_version"`
	TS           time.Time `json:"ts"`
}

// labelsPath is the append-only label log; the store stays the runtime's.
func labelsPath(drive string) string { return filepath.Join(drive, "eval", "labels.jsonl") }

func labelCommand() *cli.Command {
	return &cli.Command{
		Name:      "label",
		Usage:     "record a human label for a Laya observation",
		ArgsUsage: "OBSERVATION",
		Description: `label appends a human label for one observation to
.fluzodrive/eval/labels.jsonl, with the annotator, the source of the label and
a label version. Labels never change the observation, the task or anything
the runtime did; the latest label of an observation is the one exported.`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "label", Usage: "the correct `ACTION` or answer", Required: true},
			&cli.StringFlag{Name: "annotator", Usage: "who labelled it (`NAME`)", Required: true},
			&cli.StringFlag{Name: "source", Usage: "how the label was obtained (review, test_outcome, ...)", Value: "review"},
			&cli.IntFlag{Name: "label-version", Usage: "version of the labelling guideline", Value: 1},
		},
		Action: func(ctx context.Context, c *cli.Command) error {
			if c.Args().Len() != 1 {
				return core.Errorf(core.CodeUsage, "label needs exactly one OBSERVATION id").
					WithHint("find ids with 'fluzo-observe eval export'")
			}
			obs := c.Args().First()
			for flag, v := range map[string]string{"label": c.String("label"), "annotator": c.String("annotator"), "source": c.String("source")} {
				if strings.TrimSpace(v) == "" || len(v) > 200 || strings.ContainsAny(v, "\n\r\x1b") {
					return core.Errorf(core.CodeUsage, "--%s must be one line of at most 200 characters", flag).WithHint("see '%s --help'", c.FullName())
				}
			}
			s, err := openHistory(ctx, c)
			if err != nil {
				return err
			}
			defer s.Close()
			if err := observationExists(ctx, s, obs); err != nil {
				return err
			}
			l := Label{V: 1, Type: "laya.label", Observation: obs, Label: c.String("label"), Annotator: c.String("annotator"),
				Source: c.String("source"), LabelVersion: int(c.Int("label-version")), TS: time.Now().UTC()}
			if err := appendLabel(s.Workspace().Drive(), l); err != nil {
				return err
			}
			return writeJSON(c.Root().Writer, l)
		},
	}
}

// observationExists checks the store (read-only) for the observation.
func observationExists(ctx context.Context, s *store.Store, id string) error {
	sessions, err := s.ListSessions(ctx)
	if err != nil {
		return err
	}
	for _, sess := range sessions {
		obs, err := s.ListObservations(ctx, sess.ID)
		if err != nil {
			return err
		}
		for _, o := range obs {
			if o.ID == id {
				return nil
			}
		}
	}
	return core.Errorf(core.CodeNotFound, "no observation %s in this workspace", id).
		WithHint("list observations with 'fluzo-observe eval export'")
}

// appendLabel appends one line under an exclusive flock, so concurrent
// labellers never interleave partial lines.
func appendLabel(drive string, l Label) error {
	path := labelsPath(drive)
	if err := os.Mkdir(filepath.Dir(path), 0o700); err != nil && !os.IsExist(err) {
		return core.Wrap(err, core.CodeStorageError, "cannot create "+filepath.Dir(path))
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND|syscall.O_NOFOLLOW|syscall.O_CLOEXEC, 0o600)
	if err != nil {
		return core.Wrap(err, core.CodeStorageError, "cannot open "+path).WithHint("check that it is a regular file you can write")
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		return core.Wrap(err, core.CodeStorageError, "cannot lock "+path)
	}
	b, err := json.Marshal(l)
	if err != nil {
		return core.Wrap(err, core.CodeInternal, "cannot encode the label")
	}
	if _, err := f.Write(append(b, '\n')); err != nil {
		return core.Wrap(err, core.CodeStorageError, "cannot write "+path)
	}
	if err := f.Sync(); err != nil {
		return core.Wrap(err, core.CodeStorageError, "cannot sync "+path)
	}
	return nil
}

// readLabels returns the latest label per observation. A missing log is
// empty; an incomplete trailing line (interrupted write) is ignored.
func readLabels(drive string) (map[string]Label, error) {
	out := map[string]Label{}
	f, err := os.OpenFile(labelsPath(drive), os.O_RDONLY|syscall.O_NOFOLLOW, 0)
	if os.IsNotExist(err) {
		return out, nil
	}
	if err != nil {
		return nil, core.Wrap(err, core.CodeStorageError, "cannot read "+labelsPath(drive))
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		var l Label
		if json.Unmarshal(sc.Bytes(), &l) == nil && l.Type == "laya.label" && l.Observation != "" {
			out[l.Observation] = l
		}
	}
	if err := sc.Err(); err != nil {
		return nil, core.Wrap(err, core.CodeStorageError, "cannot read "+labelsPath(drive))
	}
	return out, nil
}
