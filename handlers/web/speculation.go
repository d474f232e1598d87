package web

import (
	"net/http"

	"github.com/labstack/echo/v5"
	"github.com/prometheus/client_golang/prometheus"
)

// MarkSpeculative counts a page fetched ahead of a tap and marks it, for
// the handlers (IsSpeculative) and for the calls it makes (Calls.Ahead).
func MarkSpeculative(calls Calls, reg prometheus.Registerer) (echo.MiddlewareFunc, error) {
	sp := &speculation{calls: calls, counted: prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "lk_speculative_requests_total",
		Help: "Pages fetched ahead of a tap (Sec-Purpose), by route and purpose (prefetch, prerender).",
	}, []string{"route", "purpose"})}
	if err := register(reg, sp.counted); err != nil {
		return nil, err
	}
	return sp.mark, nil
}

type speculation struct {
	calls   Calls
	counted *prometheus.CounterVec
}

func (sp *speculation) mark(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c *echo.Context) error {
		r := c.Request()
		if p := speculativePurpose(r); p != "" && r.Method == http.MethodGet {
			sp.counted.WithLabelValues(c.Path(), p).Inc()
			c.Set(keySpeculative, true)
			c.SetRequest(r.WithContext(sp.calls.Ahead(r.Context())))
		}
		return next(c)
	}
}
