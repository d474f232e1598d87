package main

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"sync/atomic"
	"time"
)

// drain takes the instance out of its balancer's pool before it stops:
// from the moment shutdown begins /readyz answers 503, while every other
// request is still served, so the balancer sends nothing new here by the
// time the listener closes.
type drain struct{ on atomic.Bool }

// readiness answers /readyz with 503 once draining, and passes the rest
// on. While draining every answer closes its connection after it, so the
// balancer's pool of connections here empties as it is used; an idle one
// is never closed under a request the balancer may be sending on it
// (http.Server.SetKeepAlivesEnabled(false) would do that).
func (d *drain) readiness(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !d.on.Load() {
			next.ServeHTTP(w, r)
			return
		}
		w.Header().Set("Connection", "close")
		if r.URL.Path == "/readyz" {
			http.Error(w, "shutting down", http.StatusServiceUnavailable)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// shutdown stops srv without losing a request: /readyz turns 503; once
// drained fires (the balancer has seen the 503 and sends nothing new
// here) the listener closes and the requests in flight finish, for at
// most timeout, or until uploads (when the refund uploads in flight end at
// the latest) when that is later: a customer's documents are answered,
// not cut.
func (d *drain) shutdown(srv *http.Server, drained <-chan time.Time, timeout time.Duration, uploads func() time.Time, log *slog.Logger) error {
	d.on.Store(true)
	log.Info("shutting down: /readyz answers 503 until the balancer lets go")
	<-drained
	end := time.Now().Add(timeout)
	if u := uploads(); u.After(end) {
		end = u
		log.Info("shutting down: waiting for refund uploads in flight", "until", u.Format(time.RFC3339))
	}
	log.Info("shutting down: finishing the requests in flight")
	ctx, cancel := context.WithDeadline(context.Background(), end)
	defer cancel()
	if err := srv.Shutdown(ctx); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
