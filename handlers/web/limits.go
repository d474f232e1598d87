package web

import (
	"cmp"
	"context"
	"errors"
	"io"
	"mime"
	"net/http"
	"os"
	"sync/atomic"
	"time"

	"github.com/labstack/echo/v5"
)

const (
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

// uploadBound is how long a shutdown may wait for refund uploads in flight.
func uploadBound(callTimeout time.Duration) time.Duration {
	return uploadBodyTime + callTimeout + uploadMargin
}

// A form is read here, so that a chunked one over the cap is a 413, not a
// form that looks empty, and one too slow a 408.
// formTime 0: 10 s; an upload waits for the provider up to callTimeout.
func BodyLimit(formTime, callTimeout time.Duration, health *Health, uploads Uploads) echo.MiddlewareFunc {
	l := &limits{cmp.Or(formTime, formBodyTime), cmp.Or(callTimeout, 10*time.Second), health, uploads}
	return l.limit
}

// Uploads tells the forms that may carry documents, which get a larger body
// and a longer time, and counts those refused as the instance shuts down.
type Uploads interface {
	IsUpload(r *http.Request) bool
	Draining()
}

type limits struct {
	formTime    time.Duration
	callTimeout time.Duration
	health      *Health
	uploads     Uploads
}

func (l *limits) limit(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c *echo.Context) error {
		r := c.Request()
		limit, wait := int64(FormLimit), l.formTime
		if l.uploads.IsUpload(r) {
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
			return tooLarge(r, l.uploads)
		}
		r.Body = http.MaxBytesReader(c.Response(), r.Body, limit)
		if !hasBody(r) {
			return next(c)
		}
		if l.uploads.IsUpload(r) {
			return l.upload(c, next)
		}
		var err error
		if mt, _, _ := mime.ParseMediaType(r.Header.Get(echo.HeaderContentType)); mt == echo.MIMEMultipartForm {
			err = r.ParseMultipartForm(formMemory)
		} else {
			err = r.ParseForm()
		}
		if _, over := errors.AsType[*http.MaxBytesError](err); over {
			return tooLarge(r, l.uploads)
		}
		if errors.Is(err, os.ErrDeadlineExceeded) {
			// net/http cancels the request with its read; the answer is still written.
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

// A shutdown waits for an upload until uploadBound; while draining, a new one
// is refused before its body is read.
func (l *limits) upload(c *echo.Context, next echo.HandlerFunc) error {
	done, ok := l.health.upload(uploadBound(l.callTimeout))
	if !ok {
		l.uploads.Draining()
		c.Response().Header().Set(echo.HeaderRetryAfter, drainRetry)
		return errRestarting
	}
	defer done()
	return next(c)
}

func hasBody(r *http.Request) bool {
	return r.Method == http.MethodPost || r.Method == http.MethodPut || r.Method == http.MethodPatch
}

func tooLarge(r *http.Request, uploads Uploads) *Error {
	if uploads.IsUpload(r) {
		return ErrTooLarge
	}
	return errFormTooLarge
}
