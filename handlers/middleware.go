package handlers

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"io"
	"log/slog"
	"mime"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/labstack/echo/v5"
	"github.com/prometheus/client_golang/prometheus"

	"lk/gateway"
	"lk/handlers/web"
)

const (
	keyNonce          = "lk.nonce"
	keySession        = "lk.session"
	keySessionUnknown = "lk.session-unknown"
	keyRequestID      = "lk.request_id"

	formLimit   = 64 << 10 // plain forms
	uploadLimit = 25 << 20 // refund documents
	formMemory  = 32 << 20 // of a multipart form, kept in memory (echo's default)

	// A small form that arrives slower than this holds the server rather than
	// filling a form; documents get what a slow mobile link needs for 25 MB.
	formBodyTime   = 10 * time.Second
	uploadBodyTime = 2 * time.Minute
	// What an upload may take besides its body and the provider's answer
	// (its checks, the kept documents).
	uploadMargin = 10 * time.Second
	drainRetry   = "60"
)

// UploadBound is how long a shutdown may wait for refund uploads in flight
// with the provider deadline callTimeout.
func UploadBound(callTimeout time.Duration) time.Duration {
	return uploadBodyTime + callTimeout + uploadMargin
}

type metrics struct {
	requests *prometheus.CounterVec
	duration *prometheus.HistogramVec
	refusals *prometheus.CounterVec
	signins  *prometheus.CounterVec
	budget   *prometheus.GaugeVec
	shed     *prometheus.CounterVec
	spent    *prometheus.CounterVec
}

func newMetrics(reg prometheus.Registerer) (*metrics, error) {
	m := &metrics{
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "lk_http_requests_total", Help: "HTTP requests by route, method and status.",
		}, []string{"route", "method", "status"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "lk_http_request_duration_seconds", Help: "HTTP request durations by route and method.",
			Buckets: []float64{.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10},
		}, []string{"route", "method"}),
		refusals: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "lk_signin_limit_refusals_total", Help: "Sign-in steps refused by a limit, by limit.",
		}, []string{"limit"}),
		signins: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "lk_signin_attempts_total", Help: "Sign-in steps by step and outcome.",
		}, []string{"step", "outcome"}),
		budget: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "lk_sms_budget_used_ratio", Help: "Share of the SMS code budget used, by budget (sms_hour, sms_day, and the shares sms_hour_signup, sms_hour_unknown, …), as of a code this instance sent lately.",
		}, []string{"budget"}),
		shed: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "lk_http_shed_total", Help: "Pages refused with 503 because more were asked than the cores can serve, by route.",
		}, []string{"route"}),
		spent: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "lk_sms_budget_refusals_total", Help: "Codes refused because an SMS budget was spent, by who asked (signup, unknown_browser, known_browser) and budget.",
		}, []string{"class", "budget"}),
	}
	for _, c := range []prometheus.Collector{m.requests, m.duration, m.refusals, m.signins, m.budget, m.shed, m.spent} {
		if err := reg.Register(c); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// The log has the path without its query, never a cookie, token or code. A
// method outside HTTP's own is answered 501 and counted under one label, so
// no client can add series to the metrics.
func (s *Server) observe(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c *echo.Context) error {
		start := time.Now()
		id := c.Request().Header.Get(echo.HeaderXRequestID)
		if id == "" || len(id) > 64 {
			id = web.RandomID()
		}
		c.Set(keyRequestID, id)
		c.Response().Header().Set(echo.HeaderXRequestID, id)
		// A page whose provider call is refused (too many in flight) gives up
		// its other calls; a form sent keeps them.
		page := c.Request().Method == http.MethodGet || c.Request().Method == http.MethodHead
		c.SetRequest(c.Request().WithContext(gateway.WatchBusy(gateway.WithRequestID(c.Request().Context(), id), page)))
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
		s.metrics.requests.WithLabelValues(route, method, strconv.Itoa(status)).Inc()
		s.metrics.duration.WithLabelValues(route, method).Observe(d.Seconds())
		level := slog.LevelInfo
		if shed, _ := c.Get(keyShed).(bool); shed || route == routeHealthz || route == routeReadyz {
			// A balancer probes every few seconds; refusals under overload are
			// counted and said every 10 s, not a line each.
			level = slog.LevelDebug
		}
		attrs := []any{"id", id, "method", method, "path", c.Request().URL.Path, "route", route, "status", status}
		if sent != status {
			attrs = append(attrs, "sent", sent)
		}
		s.log.Log(c.Request().Context(), level, "request", append(attrs, "ms", float64(d.Microseconds())/1000, "ip", c.RealIP())...)
		return nil
	}
}

// reportedStatus is the status of a request's answer as the log, the metrics
// and the trace report it, and the status line that went: they differ
// when a page failed after its loading frame had gone with 200.
func reportedStatus(c *echo.Context) (status, sent int) {
	_, sent = echo.ResolveResponseStatus(c.Response(), nil)
	if page, ok := c.Get(keyPageStatus).(int); ok {
		return page, sent
	}
	return sent, sent
}

func (s *Server) secure(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c *echo.Context) error {
		b := make([]byte, 16)
		_, _ = rand.Read(b)
		n := base64.StdEncoding.EncodeToString(b)
		c.Set(keyNonce, n)
		h := c.Response().Header()
		h.Set("Content-Security-Policy", "default-src 'self'; script-src 'self' 'nonce-"+n+"'; style-src 'self' 'nonce-"+n+
			"'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "strict-origin-when-cross-origin")
		h.Set("X-Frame-Options", "DENY")
		// No device features; no other site holds a handle on our window
		// (window.opener) or embeds our answers.
		h.Set("Permissions-Policy", "accelerometer=(), camera=(), geolocation=(), gyroscope=(), magnetometer=(), microphone=(), payment=(), usb=()")
		h.Set("Cross-Origin-Opener-Policy", "same-origin")
		h.Set("Cross-Origin-Resource-Policy", "same-origin")
		if s.scheme(c) == "https" {
			h.Set("Strict-Transport-Security", "max-age=31536000; includeSubDomains")
		}
		if !strings.HasPrefix(c.Request().URL.Path, "/static/") {
			h.Set(echo.HeaderCacheControl, "no-store")
		}
		return next(c)
	}
}

// crossOrigin is the CSRF defence of every form (Go's Sec-Fetch-Site and
// Origin check).
func crossOrigin() echo.MiddlewareFunc {
	cop := http.NewCrossOriginProtection()
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c *echo.Context) error {
			if err := cop.Check(c.Request()); err != nil {
				return errForbidden
			}
			return next(c)
		}
	}
}

// A form is read here, so that a chunked one over the cap is a 413, not a
// form that looks empty, and one too slow a 408.
func (s *Server) bodyLimit(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c *echo.Context) error {
		r := c.Request()
		limit, wait := int64(formLimit), s.formBodyTime
		if isUpload(r) {
			limit, wait = uploadLimit, uploadBodyTime
		}
		if r.ContentLength == 0 {
			return next(c)
		}
		// Whatever the answer, the body gets no longer than its deadline:
		// net/http reads up to 256 KB of a body left unread before it
		// answers, so a refusal must not wait on it either. An answer given
		// before the body was read whole closes the connection instead.
		rc := http.NewResponseController(c.Response())
		_ = rc.SetReadDeadline(time.Now().Add(wait)) // not supported: only under a test recorder
		body := &bodyRead{ReadCloser: r.Body}
		r.Body = body
		if res, err := echo.UnwrapResponse(c.Response()); err == nil {
			res.Before(func() {
				if !body.whole.Load() {
					res.Header().Set(echo.HeaderConnection, "close")
				}
			})
		}
		if r.ContentLength > limit {
			return tooLarge(r)
		}
		r.Body = http.MaxBytesReader(c.Response(), r.Body, limit)
		if !hasBody(r) {
			return next(c)
		}
		if isUpload(r) {
			return s.upload(c, next)
		}
		var err error
		if mt, _, _ := mime.ParseMediaType(r.Header.Get(echo.HeaderContentType)); mt == echo.MIMEMultipartForm {
			err = r.ParseMultipartForm(formMemory)
		} else {
			err = r.ParseForm()
		}
		if _, over := errors.AsType[*http.MaxBytesError](err); over {
			return tooLarge(r)
		}
		if errors.Is(err, os.ErrDeadlineExceeded) {
			// net/http cancels the request with its connection's read; the answer is
			// still written.
			c.SetRequest(r.WithContext(context.WithoutCancel(r.Context())))
			return errSlowBody
		}
		// Lifted, or net/http would cancel the request while it waits on the provider.
		_ = rc.SetReadDeadline(time.Time{})
		return next(c)
	}
}

// bodyRead tells whether a request's body was read to its end.
type bodyRead struct {
	io.ReadCloser
	whole atomic.Bool
}

func (b *bodyRead) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if errors.Is(err, io.EOF) {
		b.whole.Store(true)
	}
	return n, err
}

// upload is in flight until it is answered: a shutdown waits for it, for
// at most its body's deadline and the provider's. While the server drains,
// a new one is refused before its body is read.
func (s *Server) upload(c *echo.Context, next echo.HandlerFunc) error {
	done, ok := s.health.upload(UploadBound(s.callTimeout))
	if !ok {
		c.Response().Header().Set(echo.HeaderRetryAfter, drainRetry)
		return errRestarting
	}
	defer done()
	return next(c)
}

func hasBody(r *http.Request) bool {
	return r.Method == http.MethodPost || r.Method == http.MethodPut || r.Method == http.MethodPatch
}

func isUpload(r *http.Request) bool { return strings.HasSuffix(r.URL.Path, "/refund") }

func tooLarge(r *http.Request) *httpError {
	if isUpload(r) {
		return errTooLarge
	}
	return errFormTooLarge
}

// A cookie whose sign-out could not be checked is left out, and the failure
// remembered for requireSession.
func (s *Server) loadSession(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c *echo.Context) error {
		sess, err := s.sessions.Read(c.Request())
		switch {
		case err != nil:
			s.log.Error("session not checked", "err", err)
			c.Set(keySessionUnknown, true)
		case sess != nil:
			c.Set(keySession, sess)
		}
		return next(c)
	}
}

// A cookie that could not be checked gets 'try later': neither let in nor
// signed out.
func requireSession(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c *echo.Context) error {
		if session(c) == nil {
			if unknown, _ := c.Get(keySessionUnknown).(bool); unknown {
				return errStoreDown
			}
			return c.Redirect(http.StatusSeeOther, "/login")
		}
		return next(c)
	}
}

// The cookie goes whatever the store says: the token is no good any more.
func (s *Server) endSession(c *echo.Context, sess *web.Session) {
	if err := s.sessions.End(c.Request().Context(), c.Response(), sess); err != nil {
		s.log.Error("sign-out not stored", "err", err)
		s.sessions.Clear(c.Response())
	}
}

func session(c *echo.Context) *web.Session {
	s, _ := c.Get(keySession).(*web.Session)
	return s
}

func nonce(c *echo.Context) string {
	n, _ := c.Get(keyNonce).(string)
	return n
}
