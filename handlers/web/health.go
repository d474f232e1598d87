package web

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/labstack/echo/v5"
	"github.com/prometheus/client_golang/prometheus"
)

// Health is what /readyz reports. The provider's state is information only:
// its outage would empty the whole pool, leaving customers the balancer's page.
type Health struct {
	serving   atomic.Bool
	storeDown atomic.Bool  // the shared store failed the last readiness check
	provider  atomic.Int32 // providerUnknown, providerUp or providerDown
	checkMu   sync.Mutex   // one check's verdict at a time
	fails     int          // failed checks in a row
	oks       int          // good checks in a row
	up        prometheus.Gauge
	drain     drain
}

// drain is the refund uploads a shutdown waits for.
type drain struct {
	draining atomic.Bool // shutting down: no new upload is taken
	mu       sync.Mutex
	uploads  int       // in flight
	until    time.Time // when the last of them ends at the latest
}

const (
	providerUnknown int32 = iota
	providerUp
	providerDown
)

// NewHealth registers lk_provider_up and lk_ready with reg, if not nil.
func NewHealth(reg prometheus.Registerer) (*Health, error) {
	h := &Health{up: prometheus.NewGauge(prometheus.GaugeOpts{
		Name: "lk_provider_up",
		Help: "1 when the provider's gateway answers the background check well, 0 after 3 checks in a row saw a 5xx, an answer outside the contract, a timeout or no connection.",
	})}
	// What the last /readyz said: 0 while shutting down or the store is down.
	ready := prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "lk_ready",
		Help: "1 when the instance serves and its shared store answered the last readiness check, 0 when not.",
	}, func() float64 {
		if h.serving.Load() && !h.storeDown.Load() {
			return 1
		}
		return 0
	})
	if reg != nil {
		for _, c := range []prometheus.Collector{h.up, ready} {
			if err := reg.Register(c); err != nil {
				return nil, err
			}
		}
	}
	return h, nil
}

// SetServing is false from shutdown on, so the balancer stops sending new
// requests while those in flight finish.
func (h *Health) SetServing(on bool) { h.serving.Store(on) }

// Drain starts the shutdown: a new upload is refused before its body is read.
func (h *Health) Drain() { h.drain.draining.Store(true) }

// UploadsUntil is when the uploads in flight end at the latest (zero: none);
// a shutdown waits that long, so a restart never cuts a customer's documents.
func (h *Health) UploadsUntil() time.Time {
	h.drain.mu.Lock()
	defer h.drain.mu.Unlock()
	return h.drain.until
}

// upload counts an upload in flight until done is called; false while draining.
func (h *Health) upload(bound time.Duration) (done func(), ok bool) {
	if h.drain.draining.Load() {
		return nil, false
	}
	h.drain.mu.Lock()
	h.drain.uploads++
	if end := time.Now().Add(bound); end.After(h.drain.until) {
		h.drain.until = end
	}
	h.drain.mu.Unlock()
	return func() {
		h.drain.mu.Lock()
		if h.drain.uploads--; h.drain.uploads == 0 {
			h.drain.until = time.Time{}
		}
		h.drain.mu.Unlock()
	}, true
}

// WatchProvider checks the provider every interval until ctx ends.
func (h *Health) WatchProvider(ctx context.Context, ping func(context.Context) error, every time.Duration, log *slog.Logger) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		cctx, cancel := context.WithTimeout(ctx, every)
		h.CheckProvider(cctx, ping, log)
		cancel()
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// The provider is counted down after providerFall failed checks in a row
// and up again after providerRise good ones, so one lost answer neither
// pages anyone nor hides an outage; the first check after start decides
// at once.
const (
	providerFall = 3
	providerRise = 2
)

// CheckProvider asks ping once and moves the provider's state by the rule
// above; a change is logged once.
func (h *Health) CheckProvider(ctx context.Context, ping func(context.Context) error, log *slog.Logger) {
	err := ping(ctx)
	if errors.Is(ctx.Err(), context.Canceled) {
		return // shutting down: no verdict
	}
	h.checkMu.Lock()
	defer h.checkMu.Unlock()
	if err != nil {
		h.fails, h.oks = h.fails+1, 0
	} else {
		h.fails, h.oks = 0, h.oks+1
	}
	before := h.provider.Load()
	state := before
	switch {
	case err != nil && (before != providerUp || h.fails >= providerFall):
		state = providerDown
	case err == nil && (before != providerDown || h.oks >= providerRise):
		state = providerUp
	}
	if state == before {
		return
	}
	h.provider.Store(state)
	if state == providerDown {
		h.up.Set(0)
		log.Warn("provider check failed: pages say 'попробуйте позже' until it answers", "err", err, "checks_failed", h.fails)
		return
	}
	h.up.Set(1)
	if before == providerDown {
		log.Info("provider answers again")
	}
}

func (h *Health) providerState() string {
	switch h.provider.Load() {
	case providerUp:
		return "up"
	case providerDown:
		return "down"
	}
	return "unknown"
}

const (
	RouteHealthz = "/healthz"
	RouteReadyz  = "/readyz"
)

// Readyz answers the balancer: 503 while shutting down or while the shared
// store (storePing, nil without one) does not answer.
func Readyz(h *Health, storePing func(context.Context) error, log *slog.Logger) echo.HandlerFunc {
	r := readiness{h, storePing, log}
	return r.readyz
}

type readiness struct {
	h         *Health
	storePing func(context.Context) error
	log       *slog.Logger
}

func (rd readiness) readyz(c *echo.Context) error {
	if !rd.h.serving.Load() {
		return c.String(http.StatusServiceUnavailable, "shutting down")
	}
	if rd.storePing != nil {
		ctx, cancel := context.WithTimeout(c.Request().Context(), 2*time.Second)
		defer cancel()
		err := rd.storePing(ctx)
		rd.storeState(err)
		if err != nil {
			return c.String(http.StatusServiceUnavailable, "store unavailable")
		}
	}
	return c.String(http.StatusOK, "ok\nprovider: "+rd.h.providerState()+"\n")
}

// storeState logs the shared store's readiness when it changes, naming what is
// wrong: a Redis that does not answer, or a replica that takes no writes.
func (rd readiness) storeState(err error) {
	if down := err != nil; rd.h.storeDown.Swap(down) != down {
		if down {
			rd.log.Error("shared store not ready: /readyz answers 503", "err", err)
		} else {
			rd.log.Info("shared store ready again")
		}
	}
}
