package web

import (
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v5"
	"github.com/prometheus/client_golang/prometheus"
)

// The log has the path without its query, never a cookie, token or code; an
// unknown method is a 501 under one label, so no client adds metric series.
func Observe(log *slog.Logger, calls Calls, reg prometheus.Registerer) (echo.MiddlewareFunc, error) {
	o := &observer{log: log, calls: calls,
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "lk_http_requests_total", Help: "HTTP requests by route, method and status.",
		}, []string{"route", "method", "status"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "lk_http_request_duration_seconds", Help: "HTTP request durations by route and method.",
			Buckets: []float64{.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10},
		}, []string{"route", "method"}),
	}
	if err := register(reg, o.requests, o.duration); err != nil {
		return nil, err
	}
	return o.observe, nil
}

// observer is the access log and the request metrics.
type observer struct {
	log      *slog.Logger
	calls    Calls
	requests *prometheus.CounterVec
	duration *prometheus.HistogramVec
}

func (o *observer) observe(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c *echo.Context) error {
		start := time.Now()
		id, outside := c.Request().Header.Get(echo.HeaderXRequestID), ""
		if !plainID(id) {
			id, outside = RandomID(), id
		}
		c.Set(keyRequestID, id)
		c.Response().Header().Set(echo.HeaderXRequestID, id)
		// A page whose provider call is refused gives up its others; a form keeps them.
		page := c.Request().Method == http.MethodGet || c.Request().Method == http.MethodHead
		c.SetRequest(c.Request().WithContext(o.calls.Watch(c.Request().Context(), id, page)))
		method := metricMethod(c.Request().Method)
		var err error
		if method == methodOther {
			err = errNotImplemented
		} else {
			err = next(c)
		}
		if err != nil {
			c.Echo().HTTPErrorHandler(c, err)
		}
		status, sent := reportedStatus(c)
		route := c.Path()
		if route == "" || method == methodOther {
			route = "unmatched"
		}
		d := time.Since(start)
		o.requests.WithLabelValues(route, method, strconv.Itoa(status)).Inc()
		o.duration.WithLabelValues(route, method).Observe(d.Seconds())
		level := slog.LevelInfo
		if shed, _ := c.Get(keyShed).(bool); shed || route == RouteHealthz || route == RouteReadyz {
			// Probes come every few seconds; refusals are counted and logged every 10 s.
			level = slog.LevelDebug
		}
		attrs := []any{"request_id", id, "method", method, "path", c.Request().URL.Path, "route", route, "status", status}
		if sent != status {
			attrs = append(attrs, "sent", sent)
		}
		if outside != "" {
			attrs = append(attrs, "outside_id", strings.ToValidUTF8(outside[:min(len(outside), maxRequestID)], "?"))
		}
		o.log.Log(c.Request().Context(), level, "request", append(attrs, "ms", float64(d.Microseconds())/1000, "ip", c.RealIP())...)
		return nil
	}
}

// A request id from outside (a balancer's) is the log's and goes on to the
// provider only when it is short and plain: letters, digits and ".-_:".
// Any other is replaced, and logged apart, cut to the same length.
const maxRequestID = 64

func plainID(id string) bool {
	if id == "" || len(id) > maxRequestID {
		return false
	}
	for _, r := range id {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune(".-_:", r)) {
			return false
		}
	}
	return true
}
