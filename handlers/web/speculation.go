package web

import (
	"net/http"
	"strings"

	"github.com/labstack/echo/v5"
)

// A page fetched ahead of a tap comes with Sec-Purpose "prefetch" (or
// "prefetch;prerender"): it is counted, changes nothing (the one-time notice
// waits), and may reuse an answer fetched moments ago for the same customer.
const keySpeculative = "lk.speculative"

// SpeculativePurpose is "prerender", "prefetch" or "" for a request the customer made.
func SpeculativePurpose(r *http.Request) string {
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

// MarkSpeculative counts a speculative request and marks its context.
func (k *Kit) MarkSpeculative(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c *echo.Context) error {
		r := c.Request()
		if p := SpeculativePurpose(r); p != "" && r.Method == http.MethodGet {
			k.metrics.speculative.WithLabelValues(c.Path(), p).Inc()
			c.Set(keySpeculative, true)
			c.SetRequest(r.WithContext(k.Calls.Ahead(r.Context())))
		}
		return next(c)
	}
}

// IsSpeculative tells a page fetched ahead of a tap (MarkSpeculative).
func IsSpeculative(c *echo.Context) bool {
	v, _ := c.Get(keySpeculative).(bool)
	return v
}

// SavesData tells whether the browser sends Save-Data: on; then nothing is fetched ahead.
func SavesData(r *http.Request) bool {
	return strings.EqualFold(strings.TrimSpace(r.Header.Get("Save-Data")), "on")
}
