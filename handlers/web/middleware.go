package web

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
)

const (
	keyNonce          = "lk.nonce"
	keySession        = "lk.session"
	keySessionUnknown = "lk.session-unknown"
	keyRequestID      = "lk.request_id"

	FormLimit   = 64 << 10 // plain forms
	UploadLimit = 25 << 20 // refund documents
	formMemory  = 32 << 20 // of a multipart form, kept in memory (echo's default)

	// A form slower than this holds the server; documents get 25 MB's time on a slow mobile link.
	formBodyTime   = 10 * time.Second
	uploadBodyTime = 2 * time.Minute
	// What an upload may take besides its body and the provider's answer.
	uploadMargin = 10 * time.Second
	drainRetry   = "60"
)

// UploadBound is how long a shutdown may wait for refund uploads in flight.
func UploadBound(callTimeout time.Duration) time.Duration {
	return uploadBodyTime + callTimeout + uploadMargin
}

// The log has the path without its query, never a cookie, token or code; an
// unknown method is a 501 under one label, so no client adds metric series.
func (k *Kit) Observe(next echo.HandlerFunc) echo.HandlerFunc {
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
		c.SetRequest(c.Request().WithContext(k.Calls.Watch(c.Request().Context(), id, page)))
		method := MetricMethod(c.Request().Method)
		var err error
		if method == methodOther {
			err = ErrNotImplemented
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
		k.metrics.requests.WithLabelValues(route, method, strconv.Itoa(status)).Inc()
		k.metrics.duration.WithLabelValues(route, method).Observe(d.Seconds())
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
		k.Logger.Log(c.Request().Context(), level, "request", append(attrs, "ms", float64(d.Microseconds())/1000, "ip", c.RealIP())...)
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

// reportedStatus is the status reported and the one sent: they differ when a
// page failed after its loading frame went with 200.
func reportedStatus(c *echo.Context) (status, sent int) {
	_, sent = echo.ResolveResponseStatus(c.Response(), nil)
	if page, ok := c.Get(keyPageStatus).(int); ok {
		return page, sent
	}
	return sent, sent
}

// Secure sets the security headers, with a fresh CSP nonce per request.
func (k *Kit) Secure(next echo.HandlerFunc) echo.HandlerFunc {
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
		// No device features; no other site holds our window or embeds our answers.
		h.Set("Permissions-Policy", "accelerometer=(), camera=(), geolocation=(), gyroscope=(), magnetometer=(), microphone=(), payment=(), usb=()")
		h.Set("Cross-Origin-Opener-Policy", "same-origin")
		h.Set("Cross-Origin-Resource-Policy", "same-origin")
		if k.scheme(c) == "https" {
			h.Set("Strict-Transport-Security", "max-age=31536000; includeSubDomains")
		}
		if !strings.HasPrefix(c.Request().URL.Path, "/static/") {
			h.Set(echo.HeaderCacheControl, "no-store")
		}
		return next(c)
	}
}

// CrossOrigin is the CSRF defence of every form (Sec-Fetch-Site and Origin).
func CrossOrigin() echo.MiddlewareFunc {
	cop := http.NewCrossOriginProtection()
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c *echo.Context) error {
			if err := cop.Check(c.Request()); err != nil {
				return ErrForbidden
			}
			return next(c)
		}
	}
}

// A form is read here, so that a chunked one over the cap is a 413, not a
// form that looks empty, and one too slow a 408.
func (k *Kit) BodyLimit(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c *echo.Context) error {
		r := c.Request()
		limit, wait := int64(FormLimit), k.FormBodyTime
		if k.Uploads.IsUpload(r) {
			limit, wait = UploadLimit, uploadBodyTime
		}
		if r.ContentLength == 0 {
			return next(c)
		}
		// net/http reads up to 256 KB of an unread body before it answers, so
		// the body gets its deadline, and an answer before it is whole closes.
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
			return k.tooLarge(r)
		}
		r.Body = http.MaxBytesReader(c.Response(), r.Body, limit)
		if !hasBody(r) {
			return next(c)
		}
		if k.Uploads.IsUpload(r) {
			return k.upload(c, next)
		}
		var err error
		if mt, _, _ := mime.ParseMediaType(r.Header.Get(echo.HeaderContentType)); mt == echo.MIMEMultipartForm {
			err = r.ParseMultipartForm(formMemory)
		} else {
			err = r.ParseForm()
		}
		if _, over := errors.AsType[*http.MaxBytesError](err); over {
			return k.tooLarge(r)
		}
		if errors.Is(err, os.ErrDeadlineExceeded) {
			// net/http cancels the request with its read; the answer is still written.
			c.SetRequest(r.WithContext(context.WithoutCancel(r.Context())))
			return ErrSlowBody
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

// A shutdown waits for an upload until UploadBound; while draining, a new one
// is refused before its body is read.
func (k *Kit) upload(c *echo.Context, next echo.HandlerFunc) error {
	done, ok := k.Health.upload(UploadBound(k.CallTimeout))
	if !ok {
		k.Uploads.Draining()
		c.Response().Header().Set(echo.HeaderRetryAfter, drainRetry)
		return ErrRestarting
	}
	defer done()
	return next(c)
}

func hasBody(r *http.Request) bool {
	return r.Method == http.MethodPost || r.Method == http.MethodPut || r.Method == http.MethodPatch
}

func (k *Kit) tooLarge(r *http.Request) *Error {
	if k.Uploads.IsUpload(r) {
		return ErrTooLarge
	}
	return ErrFormTooLarge
}

// A cookie whose sign-out could not be checked is left out and remembered.
func (k *Kit) LoadSession(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c *echo.Context) error {
		sess, err := k.Sessions.Read(c.Request())
		switch {
		case err != nil:
			k.Logger.Error("session not checked", "err", err)
			c.Set(keySessionUnknown, true)
		case sess != nil:
			c.Set(keySession, sess)
		}
		return next(c)
	}
}

// A cookie that could not be checked gets 'try later': neither let in nor out.
func RequireSession(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c *echo.Context) error {
		if SessionOf(c) == nil {
			if unknown, _ := c.Get(keySessionUnknown).(bool); unknown {
				return ErrStoreDown
			}
			return c.Redirect(http.StatusSeeOther, "/login")
		}
		return next(c)
	}
}

// The cookie goes whatever the store says: the token is no good any more.
func (k *Kit) EndSession(c *echo.Context, sess *Session) {
	if err := k.Sessions.End(c.Request().Context(), c.Response(), sess); err != nil {
		k.Logger.ErrorContext(c.Request().Context(), "sign-out not stored", "err", err)
		k.Sessions.Clear(c.Response())
	}
}

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
