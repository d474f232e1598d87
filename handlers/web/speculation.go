package web

import (
	"net/http"
	"strings"

	"github.com/labstack/echo/v5"
)

// A page the browser fetches ahead of a tap (the page's speculation rules,
// views/speculation.go) comes marked: Sec-Purpose "prefetch", or
// "prefetch;prerender" for a page rendered ahead. Such a request is counted
// by route and purpose, changes nothing (it leaves the one-time notice for
// the page the customer really opens), and its reads of the customer's own
// orders may take an answer this instance fetched moments ago for the same
// customer instead of asking the provider again (Calls.Ahead): the
// page the customer is reading was made from that answer.
const keySpeculative = "lk.speculative"

// SpeculativePurpose is "prerender", "prefetch" or "" for a request the
// customer made.
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

func IsSpeculative(c *echo.Context) bool {
	v, _ := c.Get(keySpeculative).(bool)
	return v
}

// SavesData tells whether the customer's browser asks to save data
// (Save-Data: on): then no page tells it to fetch anything ahead.
func SavesData(r *http.Request) bool {
	return strings.EqualFold(strings.TrimSpace(r.Header.Get("Save-Data")), "on")
}
