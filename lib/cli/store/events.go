package storecli

import (
	"bufio"
	"context"
	"time"

	"github.com/josecorral/fluzo/lib/cli/runner"
	"github.com/josecorral/fluzo/lib/store"
	"github.com/urfave/cli/v3"
)

func eventsCommand() *cli.Command {
	return &cli.Command{
		Name:  "events",
		Usage: "stream stored events as JSON Lines, in commit order",
		Description: `Prints one event envelope per line: v, id, seq (per session, gap-free), ts,
type, session, task, attempt, operation, corr, cause, trace, span, data.
Events are read page by page, so any history streams in bounded memory:

  fluzo-store events | jq 'select(.type == "task.created")'

--type takes an exact type, a prefix such as "operation.*", or several
separated by commas. --after keeps events whose seq is greater than SEQ
(per session; combine with --session). --follow keeps streaming events as
they are committed until interrupted.`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "session", Usage: "only events of session `ID`"},
			&cli.StringFlag{Name: "task", Usage: "only events of task `ID`"},
			&cli.StringFlag{Name: "type", Usage: "only events whose type matches `PATTERN` (exact, prefix.*, comma list)"},
			&cli.Int64Flag{Name: "after", Usage: "only events with seq greater than `SEQ`"},
			&cli.IntFlag{Name: "limit", Usage: "stop after `N` events (0: no limit)"},
			&cli.BoolFlag{Name: "follow", Aliases: []string{"f"}, Usage: "keep streaming new events until interrupted"},
			&cli.DurationFlag{Name: "poll", Value: 200 * time.Millisecond, Usage: "with --follow, check for new events every `DURATION`"},
		},
		Action: runEvents,
	}
}

func runEvents(ctx context.Context, c *cli.Command) error {
	if c.Int("limit") < 0 || c.Int64("after") < 0 {
		return runner.Usage(c, "--limit and --after must not be negative")
	}
	if c.Duration("poll") <= 0 {
		return runner.Usage(c, "--poll must be a positive duration such as 200ms")
	}
	s, err := openRead(ctx, c)
	if err != nil {
		return err
	}
	defer s.Close()
	out := bufio.NewWriterSize(c.Root().Writer, 64<<10)
	q := store.EventQuery{Session: c.String("session"), Task: c.String("task"), Type: c.String("type"), AfterSeq: c.Int64("after")}
	remaining := c.Int("limit")
	for {
		q.Limit = store.DefaultPage
		if remaining > 0 {
			q.Limit = min(remaining, store.DefaultPage)
		}
		page, err := s.EventLines(ctx, q)
		if err != nil {
			return stopped(ctx, err)
		}
		for _, line := range page.Lines {
			out.Write(line)
			if err := out.WriteByte('\n'); err != nil {
				return err
			}
		}
		q.AfterPos = page.Next
		if c.Int("limit") > 0 {
			remaining -= len(page.Lines)
			if remaining == 0 {
				return out.Flush()
			}
		}
		if page.More {
			continue
		}
		if err := out.Flush(); err != nil || !c.Bool("follow") {
			return err
		}
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(c.Duration("poll")):
		}
	}
}

// stopped treats an interrupt during --follow as the normal end.
func stopped(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return nil
	}
	return err
}
