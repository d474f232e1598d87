// Command lk is the resort's customer personal account: one binary that
// renders the pages and talks to the provider's gateway, or to the bundled
// sandbox gateway when none is configured.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"syscall"
	_ "time/tzdata" // the binary runs where no zoneinfo is installed

	"go.opentelemetry.io/otel/trace"

	"lk/gateway"
	"lk/handlers/web"
)

func main() {
	tuneGC(os.Getenv)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args, os.Environ(), os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "lk:", err)
		if errors.Is(err, errUsage) {
			os.Exit(2)
		}
		os.Exit(1)
	}
}

// run starts the server and serves until ctx ends. It takes the whole
// environment (NAME=value lines), not a getenv: an LK_ name it does not
// know must be seen to be refused.
func run(ctx context.Context, args []string, environ []string, stdout io.Writer) error {
	if done, err := parseArgs(args, stdout); done || err != nil {
		return err
	}
	cfg, err := loadConfig(environ)
	if err != nil {
		return err
	}
	build := readBuild()
	log := newLogger(cfg.LogLevel, stdout)
	log.Info("starting lk", build.attrs()...)
	reg := newRegistry(build)
	tp, stopTracing, err := startTracing(ctx, lookup(environ), build, log)
	if err != nil {
		return err
	}
	defer stopTracing()
	unlock, err := cfg.lockDataDir()
	if err != nil {
		return err
	}
	defer unlock()
	client, sandboxURL, stopSandbox, err := startProvider(cfg, reg, tp, log)
	defer stopSandbox()
	if err != nil {
		return err
	}
	st, closeStore, err := openStore(ctx, cfg, reg, log)
	if err != nil {
		return err
	}
	defer closeStore()
	health, err := web.NewHealth(reg)
	if err != nil {
		return err
	}
	// The provider is checked in the background, for lk_provider_up and
	// /readyz's body; probes never call it.
	go health.WatchProvider(ctx, client.Ping, cfg.ProviderCheck, log.With("component", "gateway"))
	h, err := newHandler(cfg, client, st, health, sandboxURL, reg, tp, log)
	if err != nil {
		return err
	}
	stopDebug, err := serveDebug(cfg.DebugAddr, cfg.DebugToken, reg, log)
	if err != nil {
		return err
	}
	defer stopDebug()
	return serve(ctx, cfg, h, health, newNotifier(lookup(environ)), log)
}

func newLogger(level string, w io.Writer) *slog.Logger {
	var l slog.Level
	_ = l.UnmarshalText([]byte(level)) // checked by loadConfig
	return slog.New(requestIDs{slog.NewJSONHandler(w, &slog.HandlerOptions{Level: l, ReplaceAttr: redactPhones})})
}

// requestIDs adds the id of the request a line is logged for (from the
// context of a ...Context call) as request_id, so every line of one
// request can be found by it; a line that names it already keeps its own.
// With tracing on, trace_id and span_id go beside it, so a line leads to
// its trace and back.
type requestIDs struct{ slog.Handler }

func (h requestIDs) Handle(ctx context.Context, r slog.Record) error {
	if id := gateway.RequestID(ctx); id != "" {
		named := false
		r.Attrs(func(a slog.Attr) bool { named = a.Key == "request_id"; return !named })
		if !named {
			r.AddAttrs(slog.String("request_id", id))
		}
	}
	if sc := trace.SpanContextFromContext(ctx); sc.IsValid() {
		r.AddAttrs(slog.String("trace_id", sc.TraceID().String()), slog.String("span_id", sc.SpanID().String()))
	}
	return h.Handler.Handle(ctx, r)
}

func (h requestIDs) WithAttrs(as []slog.Attr) slog.Handler {
	return requestIDs{h.Handler.WithAttrs(as)}
}
func (h requestIDs) WithGroup(name string) slog.Handler { return requestIDs{h.Handler.WithGroup(name)} }

// lookup is getenv over environ: the last line of a name wins, as in a
// process's own environment.
func lookup(environ []string) func(string) string {
	m := map[string]string{}
	for _, kv := range environ {
		if k, v, ok := strings.Cut(kv, "="); ok {
			m[k] = v
		}
	}
	return func(k string) string { return m[k] }
}
