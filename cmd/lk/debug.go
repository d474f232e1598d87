package main

import (
	"crypto/sha256"
	"crypto/subtle"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"net/netip"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// serveDebug serves /metrics and net/http/pprof on their own address
// (LK_DEBUG_ADDR), never on the public one: metrics and profiles show the
// inside of the process, and a CPU profile costs CPU. Empty addr: nothing.
// The returned function stops it.
// With a token (LK_DEBUG_TOKEN_FILE) every request must carry it, as a
// bearer token (Prometheus's authorization credentials_file) or as Basic
// auth's password (go tool pprof http://x:TOKEN@host/...); anything else is
// a 401 that says nothing more.
func serveDebug(addr, token string, g prometheus.Gatherer, log *slog.Logger) (func(), error) {
	if addr == "" {
		return func() {}, nil
	}
	mux := http.NewServeMux()
	mux.Handle("/metrics", promhttp.HandlerFor(g, promhttp.HandlerOpts{}))
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("LK_DEBUG_ADDR: listen on %s: %w", addr, err)
	}
	var h http.Handler = mux
	if token != "" {
		h = requireToken(token, mux)
	} else if ap, err := netip.ParseAddrPort(ln.Addr().String()); err != nil || !ap.Addr().Unmap().IsLoopback() {
		log.Warn("LK_DEBUG_ADDR listens beyond this machine without LK_DEBUG_TOKEN_FILE: whoever reaches it reads the metrics and profiles the process; set a token or listen on 127.0.0.1",
			"addr", ln.Addr().String())
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	log.Info("metrics", "addr", "http://"+ln.Addr().String()+"/metrics")
	log.Info("profiling", "addr", "http://"+ln.Addr().String()+"/debug/pprof/")
	return func() { _ = srv.Close() }, nil
}

// requireToken lets through only requests that carry token.
func requireToken(token string, next http.Handler) http.Handler {
	want := sha256.Sum256([]byte(token))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		if !ok {
			_, got, ok = r.BasicAuth()
		}
		sum := sha256.Sum256([]byte(got))
		if !ok || subtle.ConstantTimeCompare(sum[:], want[:]) != 1 {
			w.Header().Set("WWW-Authenticate", `Basic realm="lk debug"`)
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		next.ServeHTTP(w, r)
	})
}
