package observe

import (
	"context"
	"time"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/observe"
	"github.com/urfave/cli/v3"
)

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
			in := observe.LabelInput{Observation: c.Args().First(), Label: c.String("label"), Annotator: c.String("annotator"),
				Source: c.String("source"), LabelVersion: int(c.Int("label-version"))}
			// Bad values are reported before the store is opened, by flag.
			if err := in.Validate(); err != nil {
				flag, _ := core.AsError(err).Details["field"].(string)
				return core.Errorf(core.CodeUsage, "--%s must be one line of at most %d characters", flag, observe.MaxLabelText).WithHint("see '%s --help'", c.FullName())
			}
			s, err := openHistory(ctx, c)
			if err != nil {
				return err
			}
			defer s.Close()
			l, err := observe.AddLabel(ctx, s, in, time.Now())
			if err != nil {
				return err
			}
			return writeJSON(c.Root().Writer, l)
		},
	}
}
