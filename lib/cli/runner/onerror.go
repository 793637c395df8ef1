package runner

import (
	"context"
	"errors"

	"github.com/urfave/cli/v3"
)

// errorHookKey holds a command's OnError hook in its Metadata.
const errorHookKey = "fluzo.onError"

// errorGuardKey marks an action already wrapped, so Prepare stays
// idempotent.
const errorGuardKey = "fluzo.errorGuard"

// OnError registers hook to see every error cmd ends with — a flag or
// usage error found while parsing, a missing required flag, a stray
// argument or its action's own error — before Report prints it. Commands
// whose output has a fixed last line (fluzo-agent run's result record)
// use it to end with that line even when they never started. Errors that
// are Silent (the command printed its output already) are not passed.
func OnError(cmd *cli.Command, hook func(ctx context.Context, c *cli.Command, err error)) {
	if cmd.Metadata == nil {
		cmd.Metadata = map[string]any{}
	}
	cmd.Metadata[errorHookKey] = hook
}

func callErrorHook(ctx context.Context, c *cli.Command, err error) {
	var silent Silent
	if err == nil || errors.As(err, &silent) {
		return
	}
	if hook, ok := c.Metadata[errorHookKey].(func(context.Context, *cli.Command, error)); ok {
		hook(ctx, c, err)
	}
}

type argsKey struct{}

// Args returns the command line Run was given (program name first): an
// error hook reads it when parsing stopped before a flag it needs.
func Args(ctx context.Context) []string {
	args, _ := ctx.Value(argsKey{}).([]string)
	return args
}

// guardActionErrors passes the errors of cmd's action to its hook; it wraps
// the outermost action, so stray-argument errors are seen too.
func guardActionErrors(cmd *cli.Command) {
	if cmd.Action == nil || cmd.Metadata[errorHookKey] == nil || cmd.Metadata[errorGuardKey] != nil {
		return
	}
	cmd.Metadata[errorGuardKey] = true
	action := cmd.Action
	cmd.Action = func(ctx context.Context, c *cli.Command) error {
		err := action(ctx, c)
		callErrorHook(ctx, c, err)
		return err
	}
}
