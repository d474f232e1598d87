package web

import (
	"net/http"
	"strings"

	"github.com/labstack/echo/v5"
)

// What the middleware leaves on a request for the handlers after it.
const (
	keyNonce          = "lk.nonce"
	keySession        = "lk.session"
	keySessionUnknown = "lk.session-unknown"
	keyRequestID      = "lk.request_id"
	// A page fetched ahead of a tap comes with Sec-Purpose "prefetch" (or
	// "prefetch;prerender"): it is counted, changes nothing (the one-time
	// notice waits), and may reuse an answer fetched moments ago for the same
	// customer.
	keySpeculative = "lk.speculative"
	// keyPageStatus is, on a framed answer, the status the page would have
	// had: the log, the metrics and the trace report it, not the 200 that
	// went first.
	keyPageStatus = "lk.page_status"
	// keyShed marks a refused request: its log line is debug, as refusals are summed up.
	keyShed = "lk.shed"
)

func SessionOf(c *echo.Context) *Session {
	s, _ := c.Get(keySession).(*Session)
	return s
}

// SessionUnknown tells whether the sign-out store did not answer for the cookie.
func SessionUnknown(c *echo.Context) bool {
	v, _ := c.Get(keySessionUnknown).(bool)
	return v
}

// RequestID is the request's id, as its access log line has it.
func RequestID(c *echo.Context) string {
	id, _ := c.Get(keyRequestID).(string)
	return id
}

func Nonce(c *echo.Context) string {
	n, _ := c.Get(keyNonce).(string)
	return n
}

func WantsJSON(c *echo.Context) bool {
	for _, a := range c.Request().Header.Values(echo.HeaderAccept) {
		if a == echo.MIMEApplicationJSON {
			return true
		}
	}
	return false
}

// speculativePurpose is "prerender", "prefetch" or "" for a request the customer made.
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

// IsSpeculative tells a page fetched ahead of a tap (MarkSpeculative).
func IsSpeculative(c *echo.Context) bool {
	v, _ := c.Get(keySpeculative).(bool)
	return v
}

// SavesData tells whether the browser sends Save-Data: on; then nothing is fetched ahead.
func SavesData(r *http.Request) bool {
	return strings.EqualFold(strings.TrimSpace(r.Header.Get("Save-Data")), "on")
}

// One label for every method outside HTTP's own keeps /metrics bounded.
const methodOther = "other"

func metricMethod(m string) string {
	switch m {
	case http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch,
		http.MethodDelete, http.MethodOptions, http.MethodConnect, http.MethodTrace:
		return m
	}
	return methodOther
}

// reportedStatus is the status reported and the one sent: they differ when a
// page failed after its loading frame went with 200.
func reportedStatus(c *echo.Context) (status, sent int) {
	_, sent = echo.ResolveResponseStatus(c.Response(), nil)
	if page, ok := c.Get(keyPageStatus).(int); ok {
		return page, sent
	}
	return sent, sent
}
