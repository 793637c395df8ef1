package admit

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/josecorral/fluzo/lib/cli/runner"
	"github.com/josecorral/fluzo/lib/config"
	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/termsafe"
	"github.com/urfave/cli/v3"
)

func configCommand() *cli.Command {
	return &cli.Command{
		Name:  "config",
		Usage: "validate, show, create and edit the workspace .fluzo",
		Commands: []*cli.Command{
			{Name: "validate", Usage: "check a configuration file and report every problem with file:line", ArgsUsage: "[FILE]",
				Flags:  []cli.Flag{&cli.BoolFlag{Name: "json", Usage: "print each problem as a JSON line ({\"v\":1,\"type\":\"diagnostic\",...})"}},
				Action: configValidate},
			{Name: "show", Usage: "print the configuration",
				Description: `Without --effective only the values set in the file or by --set are printed;
with it every setting is printed, defaults included.`,
				Flags: []cli.Flag{
					&cli.BoolFlag{Name: "effective", Usage: "include every setting, defaults too"},
					&cli.BoolFlag{Name: "provenance", Usage: "say where each value comes from (file:line, default, cli)"},
					&cli.BoolFlag{Name: "json", Usage: "print JSON lines ({\"v\":1,\"type\":\"setting\",...})"},
				},
				Action: configShow},
			{Name: "init", Usage: "write a complete commented .fluzo with every default (offline)",
				Description: `Writes every supported setting with its default and an explanation. An
existing file is never replaced without --force; with --force an exact backup
is kept beside it (.fluzo.bak-TIMESTAMP).`,
				Flags:  []cli.Flag{&cli.BoolFlag{Name: "force", Usage: "replace an existing file, keeping a backup"}},
				Action: configInit},
			{Name: "set", Usage: "change one setting in the file, keeping comments and every other key", ArgsUsage: "KEY VALUE",
				Action: configSet},
			{Name: "schema", Usage: "print the settings registry as JSON lines", Action: configSchema},
		},
	}
}

func configValidate(_ context.Context, c *cli.Command) error {
	path := configPath(c)
	if c.Args().Len() > 1 {
		return runner.Usage(c, "validate takes at most one FILE")
	}
	if c.Args().Len() == 1 {
		path = c.Args().First()
	}
	cfg, err := config.Open(config.Options{File: path, Overrides: c.StringSlice("set")})
	if ds := config.Diagnostics(err); len(ds) > 0 && c.Bool("json") {
		enc := json.NewEncoder(c.Root().Writer)
		for _, d := range ds {
			enc.Encode(diagnosticRecord{V: core.WireVersion, Type: "diagnostic", Diagnostic: d})
		}
		return runner.Silent{Code: core.ExitFor(core.CodeOf(err))}
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(c.Root().Writer, "%s: valid (schema_version %d)\n", termsafe.Line(cfg.Path), cfg.Int("schema_version"))
	return nil
}

type diagnosticRecord struct {
	V    int    `json:"v"`
	Type string `json:"type"`
	config.Diagnostic
}

type settingRecord struct {
	V    int    `json:"v"`
	Type string `json:"type"`
	config.Value
}

func configShow(_ context.Context, c *cli.Command) error {
	cfg, err := openConfig(c)
	if err != nil {
		return err
	}
	w := c.Root().Writer
	enc := json.NewEncoder(w)
	for _, v := range cfg.Values() {
		if v.Source == config.SourceDefault && !c.Bool("effective") {
			continue
		}
		if c.Bool("json") {
			if !c.Bool("provenance") {
				v.Source, v.File, v.Line = "", "", 0
			}
			enc.Encode(settingRecord{V: core.WireVersion, Type: "setting", Value: v})
			continue
		}
		line := v.Key + " = " + config.FormatValue(v.Value)
		if c.Bool("provenance") {
			line += "  # " + provenance(v)
		}
		fmt.Fprintln(w, line)
	}
	return nil
}

func provenance(v config.Value) string {
	switch {
	case v.Source == config.SourceFile && v.Line > 0:
		return fmt.Sprintf("%s:%d", termsafe.Line(v.File), v.Line)
	case v.Source == config.SourceFile:
		return termsafe.Line(v.File)
	case v.Source == config.SourceCLI:
		return "cli override (--set)"
	}
	return "default"
}

func configInit(_ context.Context, c *cli.Command) error {
	path := configPath(c)
	data := config.Render(config.Defaults())
	w := c.Root().Writer
	if _, err := os.Lstat(path); err == nil {
		if !c.Bool("force") {
			return core.Errorf(core.CodeConfirmationRequired, "%s already exists", path).
				WithHint("use --force to replace it (an exact backup is kept), or 'fluzo-admit config set' to change single keys")
		}
		backup, err := config.Replace(path, data)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "wrote %s with every default (previous file kept as %s)\n", path, backup)
		return nil
	}
	if err := config.Create(path, data); err != nil {
		return err
	}
	fmt.Fprintf(w, "wrote %s with every default\n", path)
	return nil
}

func configSet(_ context.Context, c *cli.Command) error {
	if c.Args().Len() != 2 {
		return runner.Usage(c, "set takes KEY and VALUE")
	}
	key, value := c.Args().Get(0), c.Args().Get(1)
	cfg, err := config.Load(configPath(c))
	if err != nil {
		return err
	}
	d := cfg.Edit()
	if err := d.Set(key, value); err != nil {
		return err
	}
	res, err := d.Save()
	if err != nil {
		return err
	}
	v, _ := res.Config.Lookup(key)
	fmt.Fprintf(c.Root().Writer, "%s = %s (%s)\n", key, config.FormatValue(v.Value), provenance(v))
	return nil
}

// schemaRecord is one registry entry on the wire; "kind" is the value
// type ("type" is the record type, as on every JSONL record).
type schemaRecord struct {
	V           int      `json:"v"`
	Type        string   `json:"type"`
	Key         string   `json:"key"`
	Kind        string   `json:"kind"`
	Unit        string   `json:"unit,omitempty"`
	Default     any      `json:"default"`
	Min         *float64 `json:"min,omitempty"`
	Max         *float64 `json:"max,omitempty"`
	Options     []string `json:"options,omitempty"`
	Valid       string   `json:"valid"`
	Description string   `json:"description"`
	Privacy     string   `json:"privacy"`
	Apply       string   `json:"apply"`
}

func configSchema(_ context.Context, c *cli.Command) error {
	enc := json.NewEncoder(c.Root().Writer)
	for _, s := range config.Settings() {
		rec := schemaRecord{V: core.WireVersion, Type: "setting_schema", Key: s.Key, Kind: string(s.Kind), Unit: s.Unit,
			Default: s.Default, Options: s.Options, Valid: s.ValidRange(), Description: s.Description,
			Privacy: string(s.Privacy), Apply: string(s.Apply)}
		if s.HasRange {
			lo, hi := s.Min, s.Max
			rec.Min, rec.Max = &lo, &hi
		}
		if err := enc.Encode(rec); err != nil {
			return core.Wrap(err, core.CodeFailed, "cannot write the schema")
		}
	}
	return nil
}
