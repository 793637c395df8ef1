// Package runner runs a urfave/cli command tree the way every Fluzo binary
// must behave: typed errors printed as "what happened" plus "what to do",
// usage mistakes mapped to exit 2, and every other error mapped through the
// shared exit-code table. Binaries call Main from their one-line main.go.
package runner

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/termsafe"
	"github.com/urfave/cli/v3"
)

// Main runs cmd with the process arguments and standard streams, cancelling
// the context on SIGINT/SIGTERM, and returns the exit code.
func Main(cmd *cli.Command) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return Run(ctx, cmd, os.Args, os.Stdout, os.Stderr)
}

// Run executes cmd with args (args[0] is the program name) and returns the
// exit code. It never calls os.Exit, so tests and the testscript driver can
// run binaries in process.
func Run(ctx context.Context, cmd *cli.Command, args []string, stdout, stderr io.Writer) int {
	Prepare(cmd)
	cmd.Writer, cmd.ErrWriter = stdout, stderr
	err := cmd.Run(context.WithValue(ctx, argsKey{}, args), args)
	if err == nil {
		return core.ExitOK
	}
	return Report(stderr, cmd.Name, err)
}

// Prepare applies the settings every Fluzo command tree shares. It is
// idempotent and also used by the documentation generator so that help,
// man pages and completions see the same tree.
func Prepare(cmd *cli.Command) {
	cmd.ExitErrHandler = func(context.Context, *cli.Command, error) {}
	cmd.Suggest = true
	cmd.HideHelpCommand = true
	// Every binary answers --version the same way, so none can forget it.
	if cmd.Version == "" {
		cmd.Version = core.Version
	}
	cli.VersionPrinter = printVersion
	prepareTree(cmd)
}

func printVersion(c *cli.Command) {
	fmt.Fprintln(c.Root().Writer, core.VersionLine(c.Root().Name))
}

func prepareTree(cmd *cli.Command) {
	cmd.OnUsageError = func(ctx context.Context, c *cli.Command, err error, _ bool) error {
		uerr := usageError(c, err)
		callErrorHook(ctx, c, uerr)
		return uerr
	}
	hideRepeatedDefaults(cmd.Flags)
	if len(cmd.Commands) > 0 && cmd.Action == nil {
		cmd.Action = unknownSubcommand
	}
	refuseStrayArguments(cmd)
	guardActionErrors(cmd)
	for _, sub := range cmd.Commands {
		prepareTree(sub)
	}
}

// unknownSubcommand handles "tool group" with no or an unknown subcommand:
// help when nothing was given, a usage error naming the choices otherwise.
func unknownSubcommand(ctx context.Context, c *cli.Command) error {
	if c.Args().Len() == 0 {
		return cli.ShowSubcommandHelp(c)
	}
	var names []string
	for _, s := range c.Commands {
		if !s.Hidden {
			names = append(names, s.Name)
		}
	}
	return core.Errorf(core.CodeUsage, "%q is not a %s command", c.Args().First(), c.FullName()).
		WithHint("available: %s; see '%s --help'", strings.Join(names, ", "), c.FullName())
}

func usageError(c *cli.Command, err error) error {
	if name, ok := undefinedFlag(err.Error()); ok {
		return unknownFlagError(c, name, err)
	}
	return core.Wrap(err, core.CodeUsage, friendlyFlagError(err.Error())).
		WithHint("see '%s --help'", c.FullName())
}

// Usage returns a typed usage error for commands that validate their own
// arguments (a missing positional argument, conflicting flags).
func Usage(c *cli.Command, format string, args ...any) error {
	return core.Errorf(core.CodeUsage, format, args...).WithHint("see '%s --help'", c.FullName())
}

// Report prints err to w and returns its exit code. Messages quote
// untrusted values (paths, provider text), so they go through termsafe.
func Report(w io.Writer, prog string, err error) int {
	var exitCoder cli.ExitCoder
	if errors.As(err, &exitCoder) && !isTyped(err) {
		if msg := strings.TrimSpace(err.Error()); msg != "" {
			fmt.Fprintf(w, "%s: %s\n", prog, termsafe.Text(msg))
		}
		return exitCoder.ExitCode()
	}
	fe := core.AsError(err)
	fmt.Fprintf(w, "%s: %s\n", prog, termsafe.Text(fe.Message))
	if fe.Hint != "" {
		fmt.Fprintf(w, "hint: %s\n", termsafe.Text(fe.Hint))
	}
	return core.ExitFor(fe.Code)
}

func isTyped(err error) bool {
	var fe *core.Error
	return errors.As(err, &fe)
}

// Silent is an error that only carries an exit code: the command already
// printed what the user needs (e.g. a result record) and wants no extra
// line on stderr.
type Silent struct{ Code int }

func (s Silent) Error() string { return "" }

// ExitCode implements cli.ExitCoder.
func (s Silent) ExitCode() int { return s.Code }
