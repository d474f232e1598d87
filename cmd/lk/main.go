// Command lk is the resort's customer personal account: one binary that
// renders the pages and talks to the provider's gateway, or to the bundled
// sandbox gateway when none is configured.
package main

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"
	_ "time/tzdata" // the binary runs where no zoneinfo is installed

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"

	"lk"
	"lk/gateway"
	"lk/gateway/sandbox"
	"lk/handlers"
	"lk/store"
	"lk/views"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args, os.Getenv, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "lk:", err)
		os.Exit(1)
	}
}

// run starts the server and serves until ctx ends.
func run(ctx context.Context, args []string, getenv func(string) string, stdout io.Writer) error {
	if len(args) > 1 && (args[1] == "-h" || args[1] == "-help" || args[1] == "--help") {
		fmt.Fprintln(stdout, "lk: the resort's customer personal account. Configuration (environment):")
		for _, v := range variables {
			fmt.Fprintf(stdout, "  %-28s %s (default %q)\n", v.name, v.doc, v.def)
		}
		return nil
	}
	cfg, err := loadConfig(getenv)
	if err != nil {
		return err
	}
	var level slog.Level
	_ = level.UnmarshalText([]byte(cfg.LogLevel))
	log := slog.New(slog.NewJSONHandler(stdout, &slog.HandlerOptions{Level: level}))

	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))

	gatewayURL := cfg.GatewayURL
	sandboxURL := ""
	if gatewayURL == "" {
		sb, err := sandbox.New(sandbox.Config{DataDir: cfg.DataDir, Location: cfg.Location, Logger: log.With("component", "sandbox")})
		if err != nil {
			return fmt.Errorf("start sandbox: %w", err)
		}
		defer sb.Close()
		ln, err := net.Listen("tcp", cfg.SandboxAddr)
		if err != nil {
			return fmt.Errorf("LK_SANDBOX_ADDR: listen on %s: %w", cfg.SandboxAddr, err)
		}
		srv := &http.Server{Handler: sb.Handler(), ReadHeaderTimeout: 5 * time.Second}
		go func() { _ = srv.Serve(ln) }()
		defer srv.Close()
		sandboxURL = "http://" + ln.Addr().String()
		gatewayURL = sandboxURL + "/v1"
		log.Info("running on the bundled sandbox gateway", "url", gatewayURL, "data", cfg.DataDir)
	}

	client, err := gateway.NewClient(gatewayURL,
		gateway.WithTimeouts(cfg.ConnectTimeout, cfg.CallTimeout),
		gateway.WithRegisterer(reg),
		gateway.WithLogger(log.With("component", "gateway")),
		gateway.WithLocation(cfg.Location),
	)
	if err != nil {
		return err
	}

	keys := cfg.CookieKeys
	if len(keys) == 0 {
		keys = []handlers.Key{handlers.RandomKey()}
		log.Warn("LK_COOKIE_KEYS is not set: using random cookie keys, every session ends when the server restarts")
	}
	// Shared state: in Redis for several instances, else in this process
	// and the data folder.
	var (
		revoker   store.Revoker
		once      store.Once
		leases    store.Leases
		files     store.RefundFiles
		moves     store.Moves
		limiter   store.Limiter = store.NewMemoryLimiter()
		storePing func(context.Context) error
	)
	if cfg.RedisURL != "" {
		store.LogRedis(log)
		rs, err := store.OpenRedis(cfg.RedisURL, reg)
		if err != nil {
			return err
		}
		defer rs.Close()
		if err := rs.CheckAtStart(ctx, log); err != nil {
			return fmt.Errorf("LK_REDIS_URL: %w", err)
		}
		revoker, once, limiter, files, moves, storePing = rs, rs, rs, rs.Files(), rs, rs.Ping
		leases = rs.Leases()
		log.Info("shared state in Redis")
	} else {
		fr, err := store.OpenFileRevoker(filepath.Join(cfg.DataDir, "revoked-sessions"), time.Now)
		if err != nil {
			return err
		}
		defer fr.Close()
		fm, err := store.OpenFileMoves(filepath.Join(cfg.DataDir, "moved-bookings"), time.Now)
		if err != nil {
			return err
		}
		defer fm.Close()
		// One-time action tokens and their outcomes: a form used before a
		// restart is not used again after it.
		fo, err := store.OpenFileOnce(filepath.Join(cfg.DataDir, "action-outcomes"), time.Now)
		if err != nil {
			return err
		}
		defer fo.Close()
		revoker, moves, once = fr, fm, fo
	}
	sessions, err := handlers.NewSessions(keys, cfg.CookieDomain, revoker, time.Now)
	if err != nil {
		return err
	}
	static, err := fs.Sub(lk.Static, "static")
	if err != nil {
		return err
	}
	assets, err := views.LoadAssets(static, "css/app.css", "dist", "/static/dist/")
	if assets == nil {
		return err
	}
	if err != nil {
		log.Warn("pages are served without islands", "err", err)
	}
	e, err := handlers.New(handlers.Options{
		Provider:  client,
		Sessions:  sessions,
		Limiter:   limiter,
		Once:      once,
		Leases:    leases,
		Files:     files,
		Moves:     moves,
		StorePing: storePing,
		Site: &views.Site{MainURL: cfg.MainSiteURL, SupportPhone: cfg.SupportPhone, Socials: cfg.Socials,
			SandboxURL: sandboxURL},
		Assets:         assets,
		Static:         static,
		Logger:         log,
		Registry:       reg,
		Gatherer:       reg,
		Location:       cfg.Location,
		CodeInterval:   cfg.CodeInterval,
		CallTimeout:    cfg.CallTimeout,
		TrustedProxies: cfg.TrustedProxies,
	})
	if err != nil {
		return err
	}

	if cfg.DebugAddr != "" {
		stopDebug, err := serveDebug(cfg.DebugAddr, log)
		if err != nil {
			return err
		}
		defer stopDebug()
	}
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return fmt.Errorf("LK_ADDR: listen on %s: %w", cfg.Addr, err)
	}
	var dr drain
	srv := &http.Server{
		Handler:           dr.readiness(e),
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       2 * time.Minute, // refund documents over slow mobile links
		WriteTimeout:      2 * time.Minute,
		IdleTimeout:       2 * time.Minute,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(handlers.RussianProtocolErrors(ln)) }()
	log.Info("listening", "addr", "http://"+ln.Addr().String())

	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	return dr.shutdown(srv, time.After(cfg.ShutdownDrain), cfg.ShutdownWait, log)
}
