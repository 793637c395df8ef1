package storecli

import (
	"context"
	"fmt"
	"strconv"

	"github.com/josecorral/fluzo/lib/cli/runner"
	"github.com/josecorral/fluzo/lib/store"
	"github.com/urfave/cli/v3"
)

func fixtureCommand() *cli.Command {
	return &cli.Command{
		Name:  "fixture",
		Usage: "write a clearly labelled synthetic history for tests and benchmarks",
		Description: `Adds synthetic sessions (each marked "synthetic": true) with a completed task,
messages, tool calls and artifacts, derived from --seed. The PRD section 49.2
large-history fixture is --large, which stands for:

  fluzo-store fixture --seed 1 --sessions 8 --messages 10000 --events 100000 --artifact-bytes 256MiB

(flags given beside --large override its values).

The first artifact is shared by the first two sessions, so purge previews
show shared artifacts being kept.`,
		Flags: []cli.Flag{
			&cli.Uint64Flag{Name: "seed", Usage: "derive the history from `N`", Required: true},
			&cli.IntFlag{Name: "sessions", Value: 3, Usage: "number of sessions `N`"},
			&cli.IntFlag{Name: "messages", Value: 30, Usage: "total messages `N`"},
			&cli.IntFlag{Name: "events", Value: 300, Usage: "total events `N` (raised when the records need more)"},
			&cli.StringFlag{Name: "artifact-bytes", Value: "64KiB", Usage: "total artifact content `SIZE` (e.g. 256MiB)"},
			&cli.IntFlag{Name: "running", Usage: "leave the last `N` sessions mid-task (running attempt, dispatched operation), as after a crash"},
			&cli.BoolFlag{Name: "large", Usage: "the PRD section 49.2 large-history fixture: 8 sessions, 10000 messages, 100000 events, 256 MiB of artifacts"},
			jsonFlag(),
		},
		Action: runFixture,
	}
}

// largeFixture is the §49.2 large history: at least 10000 messages,
// 100000 events and 256 MiB of artifacts across several tasks; eight
// sessions make each timeline long (12500 events) and the list a list.
var largeFixture = map[string]string{"sessions": "8", "messages": "10000", "events": "100000", "artifact-bytes": "256MiB"}

// fixtureValue is a flag's value, or --large's when it is set and the
// flag is not.
func fixtureValue(c *cli.Command, name string) string {
	if v, ok := largeFixture[name]; ok && c.Bool("large") && !c.IsSet(name) {
		return v
	}
	if name == "artifact-bytes" {
		return c.String(name)
	}
	return fmt.Sprint(c.Int(name))
}

func fixtureInt(c *cli.Command, name string) int {
	n, _ := strconv.Atoi(fixtureValue(c, name))
	return n
}

func runFixture(ctx context.Context, c *cli.Command) error {
	size, err := store.ParseBytes(fixtureValue(c, "artifact-bytes"))
	if err != nil {
		return runner.Usage(c, "--artifact-bytes: %s", err)
	}
	sessions, messages, events := fixtureInt(c, "sessions"), fixtureInt(c, "messages"), fixtureInt(c, "events")
	if sessions < 1 || messages < 0 || events < 0 || c.Int("running") < 0 {
		return runner.Usage(c, "--sessions must be at least 1; --messages, --events and --running must not be negative")
	}
	s, err := openWrite(ctx, c)
	if err != nil {
		return err
	}
	defer s.Close()
	// The fixture is new mutating work like any other: it must pass the
	// storage admission check (quota, free-space reserve).
	if _, err := s.Admit(ctx, store.DefaultQuota); err != nil {
		return err
	}
	res, err := s.Fixture(ctx, store.FixtureSpec{Seed: c.Uint64("seed"), Sessions: sessions,
		Messages: messages, Events: events, ArtifactBytes: size, Running: c.Int("running")})
	if err != nil {
		return err
	}
	w := c.Root().Writer
	if c.Bool("json") {
		out := newJSONL(w)
		out.put(record("fixture", res))
		return out.flush()
	}
	fmt.Fprintf(w, "synthetic fixture: %d sessions, %d tasks, %d messages, %d events, %d artifacts (%s)\n",
		len(res.Sessions), res.Tasks, res.Messages, res.Events, res.Artifacts, store.FormatBytes(res.ArtifactBytes))
	return nil
}
