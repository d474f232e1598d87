package handlers

import (
	"net/http"
	"strings"

	"github.com/labstack/echo/v5"
	"github.com/prometheus/client_golang/prometheus"

	"lk/gateway"
)

// A page the browser fetches ahead of a tap (the page's speculation rules,
// views/speculation.go) comes marked: Sec-Purpose "prefetch", or
// "prefetch;prerender" for a page rendered ahead. Such a request is counted
// by route and purpose, changes nothing (it leaves the one-time notice for
// the page the customer really opens), and its reads of the customer's own
// orders may take an answer this instance fetched moments ago for the same
// customer instead of asking the provider again (gateway.Speculative): the
// page the customer is reading was made from that answer.
const keySpeculative = "lk.speculative"

// speculation is the counter of speculative requests by route and purpose.
type speculation struct {
	requests *prometheus.CounterVec
}

func newSpeculation(reg prometheus.Registerer) (speculation, error) {
	s := speculation{requests: prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "lk_speculative_requests_total",
		Help: "Pages fetched ahead of a tap (Sec-Purpose), by route and purpose (prefetch, prerender).",
	}, []string{"route", "purpose"})}
	return s, reg.Register(s.requests)
}

// speculativePurpose is "prerender", "prefetch" or "" for a request the
// customer made.
func speculativePurpose(r *http.Request) string {
	v := r.Header.Get("Sec-Purpose")
	if v == "" {
		v = r.Header.Get("Purpose") // the older name, still sent by some browsers
	}
	if !strings.HasPrefix(v, "prefetch") {
		return ""
	}
	if strings.Contains(v, "prerender") {
		return "prerender"
	}
	return "prefetch"
}

// markSpeculative counts a speculative request and marks its context.
func (s *Server) markSpeculative(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c *echo.Context) error {
		r := c.Request()
		if p := speculativePurpose(r); p != "" && r.Method == http.MethodGet {
			s.speculation.requests.WithLabelValues(c.Path(), p).Inc()
			c.Set(keySpeculative, true)
			c.SetRequest(r.WithContext(gateway.Speculative(r.Context())))
		}
		return next(c)
	}
}

func isSpeculative(c *echo.Context) bool {
	v, _ := c.Get(keySpeculative).(bool)
	return v
}

// savesData tells whether the customer's browser asks to save data
// (Save-Data: on): then no page tells it to fetch anything ahead.
func savesData(r *http.Request) bool {
	return strings.EqualFold(strings.TrimSpace(r.Header.Get("Save-Data")), "on")
}
