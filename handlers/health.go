package handlers

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/labstack/echo/v5"
	"github.com/prometheus/client_golang/prometheus"
)

// Health is what /readyz reports: whether this instance serves (its
// listener is up and it is not shutting down) and, for information only,
// the provider's state from the last background check. The provider is
// shared by every instance: were it a reason to leave the pool, its outage
// would empty the pool at once, and customers would get the balancer's
// error page instead of our Russian 'попробуйте позже'.
type Health struct {
	serving  atomic.Bool
	provider atomic.Int32 // providerUnknown, providerUp or providerDown
	up       prometheus.Gauge
}

const (
	providerUnknown int32 = iota
	providerUp
	providerDown
)

// NewHealth makes the health of an instance that does not serve yet, and
// registers the gauge lk_provider_up with reg (nil: not registered).
func NewHealth(reg prometheus.Registerer) (*Health, error) {
	h := &Health{up: prometheus.NewGauge(prometheus.GaugeOpts{
		Name: "lk_provider_up",
		Help: "1 when the provider's gateway answered the last background check, 0 when it did not.",
	})}
	if reg != nil {
		if err := reg.Register(h.up); err != nil {
			return nil, err
		}
	}
	return h, nil
}

// SetServing says whether the instance takes requests: true once it
// listens, false when it starts shutting down, so the balancer stops
// sending it new ones while those in flight finish.
func (h *Health) SetServing(on bool) { h.serving.Store(on) }

// WatchProvider checks the provider with ping at once and then every
// interval until ctx ends, keeping the answer for /readyz and the gauge.
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

// CheckProvider asks ping once and keeps the answer. A change is logged
// once, not every check.
func (h *Health) CheckProvider(ctx context.Context, ping func(context.Context) error, log *slog.Logger) {
	err := ping(ctx)
	if errors.Is(ctx.Err(), context.Canceled) {
		return // shutting down: no verdict
	}
	state, gauge := providerUp, 1.0
	if err != nil {
		state, gauge = providerDown, 0
	}
	h.up.Set(gauge)
	if before := h.provider.Swap(state); before != state {
		if err != nil {
			log.Warn("provider check failed: pages say 'попробуйте позже' until it answers", "err", err)
		} else if before == providerDown {
			log.Info("provider answers again")
		}
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

// readyz answers 200 while this instance can serve: it is not shutting
// down and its shared store, if any, answers. The provider's state is in
// the body and in lk_provider_up, and never makes it 503.
func (s *Server) readyz(c *echo.Context) error {
	if !s.health.serving.Load() {
		return c.String(http.StatusServiceUnavailable, "shutting down")
	}
	if s.storePing != nil {
		ctx, cancel := context.WithTimeout(c.Request().Context(), 2*time.Second)
		defer cancel()
		if err := s.storePing(ctx); err != nil {
			return c.String(http.StatusServiceUnavailable, "store unavailable")
		}
	}
	return c.String(http.StatusOK, "ok\nprovider: "+s.health.providerState()+"\n")
}
