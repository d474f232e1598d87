package main

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"path/filepath"
	"syscall"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"go.opentelemetry.io/otel/trace"

	"lk"
	"lk/gateway"
	"lk/gateway/sandbox"
	"lk/handlers"
	"lk/handlers/web"
	"lk/store"
	"lk/views"
	"lk/wallet"
)

// startSandbox starts the bundled sandbox gateway when no provider is
// configured, and answers the gateway's base URL, the sandbox's own URL
// (empty with a real provider) and a function that stops it.
func startSandbox(cfg config, log *slog.Logger) (gatewayURL, sandboxURL string, stop func(), err error) {
	if cfg.Sandbox == "" {
		return cfg.GatewayURL, "", func() {}, nil
	}
	sb, err := sandbox.New(sandbox.Config{DataDir: cfg.DataDir, Location: cfg.Location, Now: cfg.Now, Logger: log.With("component", "sandbox"),
		ServiceKey: cfg.GatewayKey})
	if err != nil {
		return "", "", nil, fmt.Errorf("start sandbox: %w", err)
	}
	ln, err := net.Listen("tcp", cfg.SandboxAddr)
	if err != nil {
		sb.Close()
		return "", "", nil, fmt.Errorf("LK_SANDBOX_ADDR: listen on %s: %w", cfg.SandboxAddr, err)
	}
	srv := &http.Server{Handler: sb.Handler(), ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	sandboxURL = "http://" + ln.Addr().String()
	// A warning, not news: demo customers and orders must never pass
	// for the resort's own (every page says so too).
	log.Warn("running on the bundled sandbox gateway", "url", sandboxURL+"/"+gateway.APIVersion, "data", cfg.DataDir,
		"why", cfg.Sandbox, "demo", "the customers and orders are demo data, not the resort's; set LK_GATEWAY_URL to the provider's gateway")
	return sandboxURL + "/" + gateway.APIVersion, sandboxURL, func() { srv.Close(); sb.Close() }, nil
}

// startProvider starts the sandbox when configured and makes the client of
// the gateway, the sandbox's or LK_GATEWAY_URL; stop (never nil) stops the
// sandbox.
func startProvider(cfg config, reg prometheus.Registerer, tp trace.TracerProvider, log *slog.Logger) (client *gateway.Client, sandboxURL string, stop func(), err error) {
	if cfg.Sandbox != "" && cfg.GatewayKey == "" {
		// The bundled sandbox asks for a key as a gateway may: every run
		// on it sends one the way a real gateway's is sent.
		cfg.GatewayKey = rand.Text()
	}
	gatewayURL, sandboxURL, stop, err := startSandbox(cfg, log)
	if err != nil {
		return nil, "", func() {}, err
	}
	client, err = newGatewayClient(cfg, gatewayURL, reg, tp, log)
	return client, sandboxURL, stop, err
}

func newGatewayClient(cfg config, url string, reg prometheus.Registerer, tp trace.TracerProvider, log *slog.Logger) (*gateway.Client, error) {
	return gateway.NewClient(url,
		gateway.WithTimeouts(cfg.ConnectTimeout, cfg.CallTimeout),
		gateway.WithMaxInFlight(cfg.MaxInFlight),
		gateway.WithSharedTTL(cfg.SharedTTL),
		gateway.WithClock(cfg.Now),
		gateway.WithRegisterer(reg),
		gateway.WithLogger(log.With("component", "gateway")),
		gateway.WithLocation(cfg.Location),
		gateway.WithTracerProvider(tp),
		gateway.WithUserAgent("lk/"+lk.Version()),
		gateway.WithServiceKey(cfg.GatewayKey),
	)
}

// openStore opens the shared state: in Redis for several instances, else
// in this process and the data folder. The returned function closes it.
func openStore(ctx context.Context, cfg config, reg prometheus.Registerer, log *slog.Logger) (store.Set, func(), error) {
	if cfg.RedisURL != "" {
		store.LogRedis(log)
		rs, err := store.OpenRedis(cfg.RedisURL, reg, store.RedisPassword(cfg.RedisPassword))
		if err != nil {
			return store.Set{}, nil, err
		}
		if err := rs.CheckAtStart(ctx, log); err != nil {
			rs.Close()
			return store.Set{}, nil, fmt.Errorf("LK_REDIS_URL: %w", err)
		}
		log.Info("shared state in Redis")
		return store.InRedis(rs, cfg.KeptDocuments), func() { rs.Close() }, nil
	}
	st, err := store.Folder{Dir: cfg.DataDir, Now: cfg.Now, KeptDocuments: cfg.KeptDocuments}.Open()
	if err != nil {
		return store.Set{}, nil, dataDirError(cfg.DataDir, err)
	}
	return st, func() { st.Close() }, nil
}

// dataDirError names the folder and what to do when the data folder is
// full or was written by a newer build, the causes of a failed start an
// operator must act on at once.
func dataDirError(dir string, err error) error {
	abs, _ := filepath.Abs(dir)
	switch {
	case errors.Is(err, syscall.ENOSPC) || errors.Is(err, store.ErrFolderFull):
		return fmt.Errorf("LK_DATA_DIR: the data folder %s is full (no space left on its disk): free some space there and start again: %w", abs, err)
	case errors.Is(err, store.ErrNewerFormat):
		return fmt.Errorf("LK_DATA_DIR: the data folder %s was written by a newer build of lk, which this one would misread: start that build, or a newer one, on it, or restore the copy of the folder taken before it (docs/operations.md, Rollbacks): %w", abs, err)
	}
	return err
}

// passExpiryWarning is how long before its end the start warns that the
// passes' certificate must be renewed.
const passExpiryWarning = 30 * 24 * time.Hour

// newWallet is what signs the orders' Apple Wallet passes: the resort's
// certificate when given; with the sandbox, else, a demo certificate kept
// in the data folder; else none, and the start says so once. Certificates
// are judged on the real clock, as an iPhone judges them.
func newWallet(cfg config, log *slog.Logger) (handlers.Wallet, error) {
	w := handlers.Wallet{Places: cfg.Pass.Places, MeetingPoint: cfg.Pass.MeetingPoint}
	now := time.Now()
	switch {
	case cfg.Pass.Cred.Cert != nil:
		s, err := wallet.Load(cfg.Pass.Cred, now)
		if errors.Is(err, wallet.ErrNotValidNow) {
			// Not a reason to stop every instance at its next restart.
			log.Error("Apple Wallet passes are off: renew the certificate of LK_PASS_CERT_FILE (docs/operations.md)", "err", err)
			return w, nil
		}
		if err != nil {
			return w, fmt.Errorf("LK_PASS_CERT_FILE: %w", err)
		}
		if left := s.Expires().Sub(now); left < passExpiryWarning {
			log.Warn("the certificate of the Apple Wallet passes ends soon: renew it (docs/operations.md)", "ends", s.Expires().Format(time.DateOnly))
		}
		log.Info("Apple Wallet passes signed", "pass_type", s.PassTypeID(), "ends", s.Expires().Format(time.DateOnly))
		w.Signer = s
	case cfg.Sandbox != "":
		dir := filepath.Join(cfg.DataDir, "wallet-demo")
		s, made, err := wallet.Demo(dir, now)
		if err != nil {
			return w, fmt.Errorf("LK_DATA_DIR: %w", err)
		}
		log.Info("Apple Wallet passes signed with a demo certificate: an iPhone refuses them", "dir", dir, "made", made, "ends", s.Expires().Format(time.DateOnly))
		w.Signer = s
	default:
		log.Warn("Apple Wallet passes are off: LK_PASS_CERT_FILE, LK_PASS_KEY_FILE, LK_PASS_WWDR_FILE, LK_PASS_TYPE_ID and LK_PASS_TEAM_ID are not set; the order pages offer no pass")
	}
	return w, nil
}

// newHandler builds the product's HTTP handler: sessions, assets, pages.
func newHandler(cfg config, provider handlers.Provider, st store.Set, health *web.Health, sandboxURL string,
	reg prometheus.Registerer, tp trace.TracerProvider, log *slog.Logger) (http.Handler, error) {
	keys := cfg.CookieKeys
	if len(keys) == 0 {
		keys = []web.Key{web.RandomKey()}
		log.Warn("LK_COOKIE_KEYS is not set: using random cookie keys, every session ends when the server restarts")
	}
	sessions, err := web.NewSessions(keys, cfg.CookieDomain, st.Revoker, cfg.Now)
	if err != nil {
		return nil, err
	}
	static, err := fs.Sub(lk.Static, "static")
	if err != nil {
		return nil, err
	}
	assets, err := views.LoadAssets(static, "css/app.css", "dist", "/static/dist/")
	if assets == nil {
		return nil, err
	}
	if err != nil {
		log.Warn("pages are served without islands", "err", err)
	}
	passes, err := newWallet(cfg, log)
	if err != nil {
		return nil, err
	}
	return handlers.New(handlers.Options{
		Provider: provider, Sessions: sessions, Limiter: st.Limiter, Once: st.Once, Leases: st.Leases, Files: st.Files,
		Moves: st.Moves, Acts: st.Acts, Numbers: st.Numbers, Kept: st.Kept, StorePing: st.Ping, Health: health, Tracer: tp,
		Site: &views.Site{MainURL: cfg.MainSiteURL, SupportPhone: cfg.SupportPhone, Socials: cfg.Socials,
			SandboxURL: sandboxURL},
		Assets: assets, Static: static, Logger: log, Registry: reg, Location: cfg.Location, Now: cfg.Now,
		CodeInterval: cfg.CodeInterval, SMSBudget: cfg.SMSBudget, CallTimeout: cfg.CallTimeout, TrustedProxies: cfg.TrustedProxies, PublicURL: cfg.PublicURL,
		Admission: web.NewAdmission(web.AdmissionConfig{Initial: cfg.PagesAtOnce, Fixed: cfg.PagesAtOnce > 0, Min: cfg.PagesAtOnce, Max: cfg.PagesAtOnce}),
		Wallet:    passes,
	})
}

// serve listens on LK_ADDR until ctx ends, then shuts down gracefully:
// /readyz says 503 from the start of the shutdown, pages are still served
// for LK_SHUTDOWN_DRAIN (while the balancer notices), then the listener
// closes and requests in flight get LK_SHUTDOWN_TIMEOUT to finish, refund
// uploads in flight up to their own bound (Health.UploadsUntil); new
// uploads are refused from the start of the shutdown.
//
// Under systemd (notify) it says READY=1 once it listens, feeds the
// watchdog while its own /healthz answers, and says STOPPING=1 at shutdown.
func serve(ctx context.Context, cfg config, h http.Handler, health *web.Health, notify notifier, log *slog.Logger) error {
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return fmt.Errorf("LK_ADDR: listen on %s: %w", cfg.Addr, err)
	}
	var dr drain
	srv := &http.Server{
		Handler:           dr.readiness(h),
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       2 * time.Minute, // refund documents over slow mobile links
		WriteTimeout:      2 * time.Minute,
		IdleTimeout:       2 * time.Minute,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(web.RussianProtocolErrors(ln)) }()
	health.SetServing(true)
	log.Info("listening", "addr", "http://"+ln.Addr().String())
	if err := notify.send("READY=1"); err != nil {
		log.Warn("systemd notify", "err", err)
	}
	fed, stopFeeding := context.WithCancel(ctx)
	defer stopFeeding()
	if u, err := ownHealthURL(ln.Addr().String()); err == nil {
		go notify.feed(fed, u, log)
	}

	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	_ = notify.send("STOPPING=1")
	health.SetServing(false)
	health.Drain()
	return dr.shutdown(srv, time.After(cfg.ShutdownDrain), cfg.ShutdownWait, health.UploadsUntil, log)
}
