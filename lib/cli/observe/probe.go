package observe

import (
	"context"
	"fmt"
	"time"

	"github.com/josecorral/fluzo/lib/core"
	"github.com/josecorral/fluzo/lib/telemetry"
	"github.com/urfave/cli/v3"
	"go.opentelemetry.io/otel/attribute"
)

// ProbeSpanName names the synthetic trace a probe sends, so it is easy to
// find in a collector or backend.
const ProbeSpanName = "fluzo.probe"

func probeCommand() *cli.Command {
	return &cli.Command{
		Name:  "probe",
		Usage: "send one synthetic trace, correlated log and metric to an OTLP endpoint and report delivery",
		Description: `probe is the model-independent smoke check of an export setup: it starts
telemetry with OTLP export to --endpoint (the same destination rules as the
runtime: https, loopback http, or --trusted-insecure; redirects refused;
OTEL_* variables ignored), emits one span named fluzo.probe marked
fluzo.synthetic=true, a log record inside it and a fluzo.probe.runs metric,
flushes within --timeout and prints the sinks' delivery. It exits 0 only
when all three signals were accepted by the endpoint. Nothing is written to
the workspace.`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "endpoint", Usage: "OTLP http base URL, e.g. http://127.0.0.1:4318", Required: true},
			&cli.BoolFlag{Name: "trusted-insecure", Usage: "allow plain HTTP to a non-loopback host (explicit trusted network)"},
			&cli.DurationFlag{Name: "timeout", Usage: "bound on the flush", Value: 10 * time.Second},
			&cli.BoolFlag{Name: "json", Usage: "print the health record as JSON"},
		},
		Action: probe,
	}
}

func probe(ctx context.Context, c *cli.Command) error {
	rt, err := telemetry.Start(ctx, telemetry.Options{
		Component: "fluzo-observe", Mode: "probe", MetricInterval: time.Hour, ShutdownTimeout: c.Duration("timeout"),
		Export: telemetry.Export{Enabled: true, Endpoint: c.String("endpoint"), TrustedInsecure: c.Bool("trusted-insecure"),
			Timeout: c.Duration("timeout"), MaxRetryElapsed: c.Duration("timeout") / 2},
	})
	if err != nil {
		return err
	}
	sctx, span := rt.Tracer().Start(ctx, ProbeSpanName)
	span.SetAttributes(attribute.Bool("fluzo.synthetic", true))
	rt.Logger().InfoContext(sctx, "fluzo probe", "fluzo.synthetic", true)
	runs, _ := rt.Meter().Int64Counter("fluzo.probe.runs")
	runs.Add(sctx, 1)
	traceID, _ := telemetry.IDs(sctx)
	span.End()
	rt.Shutdown(ctx)
	h := rt.Health()
	w := c.Root().Writer
	if c.Bool("json") {
		if err := writeJSON(w, h); err != nil {
			return err
		}
	} else {
		fmt.Fprintf(w, "trace %s\n", traceID)
		for _, s := range h.Sinks {
			fmt.Fprintf(w, "%-14s delivered %d dropped %d %s\n", s.Name, s.Delivered, s.DroppedTotal(), dropDetail(s))
		}
	}
	for _, s := range h.Sinks {
		if s.Delivered == 0 {
			return core.Errorf(core.CodeFailed, "the endpoint did not accept %s", s.Signal).
				WithHint("check that a collector listens at %s and accepts OTLP http/protobuf (last error: %s)", c.String("endpoint"), dash(s.LastError))
		}
	}
	return nil
}
