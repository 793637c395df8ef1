// Package tui is the fluzo-tui command: flags, finding fluzo-agent, and
// starting the terminal UI (lib/tui) against its serve port.
package tui

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/josecorral/fluzo/lib/cli/clidoc"
	"github.com/josecorral/fluzo/lib/cli/runner"
	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/port"
	ltui "github.com/josecorral/fluzo/lib/tui"
	"github.com/josecorral/fluzo/lib/tui/theme"
	"github.com/urfave/cli/v3"
)

// Command returns the fluzo-tui command tree.
func Command() *cli.Command {
	return &cli.Command{
		Name:      "fluzo-tui",
		Usage:     "the terminal UI: conversation, composer and approvals over fluzo-agent serve",
		ArgsUsage: " ",
		Version:   core.Version,
		Description: `Opens a full-screen terminal UI on a workspace. It starts fluzo-agent serve
(found beside fluzo-tui or on PATH) as its child and speaks the JSONL port:
tasks typed in the composer start there, approvals are answered from cards in
the conversation, and Ctrl+C cancels a running task. fluzo with no arguments
runs fluzo-tui. serve passes the same consent check as every owner: for a
configuration the user has not consented to (fluzo-admit consent) it starts
nothing and contacts nothing, and the UI shows its error with the command to
run.

Without a .fluzo in the workspace (and no --config) it first opens the
welcome and setup flow, offline: model endpoint, API key by reference (an
environment variable name or an auth.toml entry, never the value), model
discovery through GET /v1/models only when asked (Ctrl+D), limits,
telemetry, Laya and interface preferences, then a redacted summary before
.fluzo is created atomically. It then offers the .git/info/exclude entry for
.fluzodrive/ and records endpoint consent, each only on an explicit y. A valid
.fluzo skips setup without contacting anything; a malformed one is shown
with each problem's file:line and key and left untouched. Without a terminal
a missing .fluzo is configuration_required (exit 3) and no flow starts.

Approval cards preselect nothing: only a (approve once), t (approve for this
task) or d (deny), typed with the conversation focused on the card (Tab) and
after a short arming window, answer them. Enter and Space never approve.`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "workspace", Usage: "the workspace `DIR` (default: the current directory)"},
			&cli.StringFlag{Name: "config", Usage: "read settings from `FILE` instead of DIR/.fluzo"},
			&cli.IntFlag{Name: "animation-fps", Usage: "animation frames per second, 0-60 (0: static; default tui.animation_fps)", Value: -1},
			&cli.BoolFlag{Name: "reduced-motion", Usage: "no animation (same as tui.reduced_motion)"},
			&cli.StringFlag{Name: "theme", Usage: "default or high-contrast (default tui.theme)"},
			&cli.BoolFlag{Name: "ascii", Usage: "draw with ASCII only"},
			&cli.BoolFlag{Name: "no-color", Usage: "no colour (also when NO_COLOR is set)"},
			&cli.BoolFlag{Name: "mouse", Usage: "capture the mouse (wheel scrolls, click selects; ctrl+o releases it)"},
			&cli.BoolFlag{Name: "dev-menu", Usage: "enable the developer menu (F4; default tui.dev_menu, off)"},
			&cli.BoolFlag{Name: "no-dev-menu", Usage: "disable the developer menu even when tui.dev_menu is true"},
			&cli.StringFlag{Name: "draft", Usage: "pre-fill the composer with `TEXT`"},
			&cli.BoolFlag{Name: "submit", Usage: "submit the --draft at once"},
			&cli.StringSliceFlag{Name: "set", Usage: "override a setting for the agent, `KEY=VALUE` (repeatable)"},
			&cli.BoolFlag{Name: "setup", Usage: "open the setup flow even when a .fluzo exists (fluzo init; replacing asks first and keeps a backup)"},
		},
		Action: action,
	}
}

// Main runs fluzo-tui.
func Main() int { return runner.Main(Command()) }

// ManSections adds fluzo-tui's man page sections.
func ManSections() []clidoc.Section {
	return []clidoc.Section{
		{Title: "Keys", Body: `Global: Tab switches composer/conversation focus; Ctrl+C cancels a running
task (again: force stop, after a confirmation that defaults to keep running),
or quits (asking first when the draft is not empty); Ctrl+Y opens the YOLO
dialog; Ctrl+R offers to resume an interrupted, blocked or failed task;
Ctrl+B hides the sidebar; Ctrl+O toggles mouse capture; Ctrl+L redraws;
Ctrl+End or End (conversation) follows the output again; Ctrl+X (or the x on
a notification) dismisses the oldest notification, which never answers,
resumes or cancels anything.

Settings (F2): every .fluzo key by screen (models and pools, limits, storage,
telemetry, theme, notifications, developer menu, all) with its value,
default, source, unit, range and when a change applies. Typing searches the
keys (Ctrl+U clears); Up/Down select;
Left/Right step or choose (a value past its range is refused, never
clamped); Space toggles; Enter edits as text; Ctrl+D restores the default;
Ctrl+A applies for this session; Ctrl+S also saves to .fluzo (only the
changed keys; comments kept; a file changed outside asks to merge); Esc
closes. Keys set by --set, --theme, --animation-fps or --reduced-motion are
locked. Model and pool max_in_flight apply to the running task at once.

Theme (F3): Up/Down preview on the whole screen; Enter applies; Ctrl+S saves
tui.theme; Esc restores the theme in effect. Developer menu (F4, only with
--dev-menu or tui.dev_menu = true): theme, animation FPS, reduced motion,
the render diagnostics overlay (application redraws, not display FPS),
desktop notifications and Laya decision.enabled (consent asked); changes
preview until Ctrl+A applies or Ctrl+S saves; Ctrl+R previews the defaults;
Esc cancels. Its preview pane is synthetic and sends nothing.

Composer: Enter submits (a queued message while a task runs); Shift+Enter or
Ctrl+J inserts a newline; a paste never submits; Up/Down walk a 32-entry
history; Up in an empty composer edits the newest queued message.

Conversation: Up/Down/j/k scroll (scrolling up pauses following); Shift+Up/
Down or K/J select an item; PgUp/PgDn/b/f page; g/Home top; G/End follow;
Space expands a tool card; c or y copies the selected message or its last code
block (OSC 52); a/t/d answer the selected approval card.

Setup: Enter moves to the next field (the next step from the last); Tab,
Shift+Tab, Up and Down move between fields; Left/Right or Space change a
choice and walk the listed models; Ctrl+U clears a field; Ctrl+D lists the
endpoint's models; Ctrl+S shows the summary; Esc restores a field being
edited, else goes back. The summary, exclusion and consent questions take
only y or n. Ctrl+C or Ctrl+Q leaves.`},
		{Title: "Environment", Body: `NO_COLOR disables colour. COLORTERM and TERM decide the colour depth.
FLUZO_AGENT names the fluzo-agent executable to start. With
tui.notifications.desktop_enabled, TERM, TERM_PROGRAM, KITTY_WINDOW_ID,
ConEmuPID, TMUX and STY choose the desktop notification sequence (OSC 777,
OSC 99, OSC 9 or the bell); one is sent only after the terminal reported a
focus-out.`},
	}
}

func action(ctx context.Context, c *cli.Command) error {
	fps := c.Int("animation-fps")
	if fps > 60 || (fps < 0 && fps != -1) {
		return runner.Usage(c, "--animation-fps must be between 0 and 60, not %d", fps)
	}
	if c.Bool("dev-menu") && c.Bool("no-dev-menu") {
		return runner.Usage(c, "--dev-menu and --no-dev-menu contradict each other")
	}
	themeName := c.String("theme")
	if themeName != "" && themeName != theme.NameDefault && themeName != theme.NameHighContrast {
		return runner.Usage(c, "--theme must be default or high-contrast, not %q", themeName)
	}
	caps := theme.Detect(os.Getenv).With(theme.Flags{ASCII: c.Bool("ascii"), NoColor: c.Bool("no-color")})
	plan, err := planSetup(ctx, c.String("workspace"), c.String("config"), c.Bool("setup"), isTerminal(os.Stdin) && isTerminal(os.Stdout))
	if err != nil {
		return err
	}
	if plan.run {
		open, err := runSetup(ctx, plan, themeName, caps, c.StringSlice("set"), c.String("config"))
		if err != nil || !open {
			return err
		}
	}
	agent, err := findAgent()
	if err != nil {
		return err
	}
	args := []string{"serve"}
	if ws := c.String("workspace"); ws != "" {
		args = append(args, "--workspace", ws)
	}
	if cf := c.String("config"); cf != "" {
		args = append(args, "--config", cf)
	}
	for _, s := range c.StringSlice("set") {
		args = append(args, "--set", s)
	}
	root := c.String("workspace")
	if root == "" {
		root, _ = os.Getwd()
	}
	root, _ = filepath.Abs(root)
	// Not ctx: a signal must not kill serve before the UI has asked the
	// running task to stop; CloseWithin bounds the wait instead.
	opts := ltui.Options{
		FPS: fps, FPSSet: fps >= 0, ReducedMotion: c.Bool("reduced-motion"), Theme: themeName,
		Caps:    caps,
		Mouse:   c.Bool("mouse"),
		DevMenu: c.Bool("dev-menu"), DevMenuSet: c.Bool("dev-menu") || c.Bool("no-dev-menu"),
		Workspace: root, Draft: c.String("draft"), Submit: c.Bool("submit"),
		ReadOnlyHistory: func() ([]port.Event, error) { return storedEvents(ctx, root) },
	}
	if fps < 0 {
		opts.FPS = 60
	}
	// serve starts beside the first frame (Run waits for Start before
	// returning, so client is set by then).
	var client *port.Client
	opts.Start = func() (ltui.Conn, error) {
		// Not ctx: a signal must not kill serve before the UI has asked the
		// running task to stop; CloseWithin bounds the wait instead.
		c, err := port.Start(context.WithoutCancel(ctx), port.Options{Path: agent, Args: args})
		if err != nil {
			return nil, err
		}
		client = c
		return c, nil
	}
	runErr := ltui.Run(ctx, opts, nil)
	if client != nil {
		_ = client.CloseWithin(10 * time.Second) // a lost port was shown on screen
	}
	var coded *core.Error
	if errors.As(runErr, &coded) {
		return runErr // serve could not start: its typed error as it was
	}
	if runErr != nil {
		return core.Wrap(runErr, core.CodeFailed, runErr.Error())
	}
	return nil
}

// findAgent prefers $FLUZO_AGENT, then the fluzo-agent beside this
// executable, then PATH, so an installed toolkit uses its own sibling.
func findAgent() (string, error) {
	if p := os.Getenv("FLUZO_AGENT"); p != "" {
		return p, nil
	}
	if self, err := os.Executable(); err == nil {
		p := filepath.Join(filepath.Dir(self), "fluzo-agent")
		if st, err := os.Stat(p); err == nil && st.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	p, err := exec.LookPath("fluzo-agent")
	if err != nil {
		return "", core.Errorf(core.CodeConfigurationRequired, "fluzo-agent was not found beside fluzo-tui or on PATH").
			WithHint("install the whole toolkit, or set FLUZO_AGENT to its path")
	}
	return p, nil
}

// readOnlyTail bounds the read-only history: the newest events only.
const readOnlyTail = 2000

// storedEvents reads the workspace's stored events with fluzo-store, which
// needs no ownership (the read-only view when another process owns it).
func storedEvents(ctx context.Context, root string) ([]port.Event, error) {
	store, err := findSibling("fluzo-store")
	if err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, store, "-C", root, "events")
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, core.Wrap(err, core.CodeFailed, "cannot run fluzo-store")
	}
	var ring []port.Event
	sc := bufio.NewScanner(out)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for sc.Scan() {
		var ev port.Event
		if json.Unmarshal(sc.Bytes(), &ev) == nil && ev.Type != "" {
			ring = append(ring, ev)
			if len(ring) > 2*readOnlyTail {
				ring = append([]port.Event(nil), ring[len(ring)-readOnlyTail:]...)
			}
		}
	}
	if err := cmd.Wait(); err != nil {
		return nil, core.Wrap(err, core.CodeStorageError, "fluzo-store events failed").WithHint("run fluzo-store events in the workspace to see why")
	}
	if len(ring) > readOnlyTail {
		ring = ring[len(ring)-readOnlyTail:]
	}
	return ring, nil
}

// findSibling prefers the toolkit binary beside this executable, then PATH.
func findSibling(name string) (string, error) {
	if self, err := os.Executable(); err == nil {
		p := filepath.Join(filepath.Dir(self), name)
		if st, err := os.Stat(p); err == nil && st.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	p, err := exec.LookPath(name)
	if err != nil {
		return "", core.Errorf(core.CodeConfigurationRequired, "%s was not found beside fluzo-tui or on PATH", name).
			WithHint("install the whole toolkit")
	}
	return p, nil
}
