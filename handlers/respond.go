package handlers

import (
	"bytes"
	"context"
	"net/http"
	"sync"
	"time"

	"lk/gateway"
	"lk/views"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v5"
)

// answer is every JSON answer of the account but an island's data.
type answer struct {
	OK         bool              `json:"ok"`
	Title      string            `json:"title,omitempty"`
	Message    string            `json:"message,omitempty"`
	Fields     map[string]string `json:"fields,omitempty"`
	RetryAfter int               `json:"retryAfter,omitempty"`
	Phone      string            `json:"phone,omitempty"`
	ResendIn   int               `json:"resendIn,omitempty"`
	Redirect   string            `json:"redirect,omitempty"`
	Token      string            `json:"token,omitempty"` // a fresh one-time token to try an action again
}

// respond is the one fork between an island's fetch, which asked for JSON,
// and a plain request, which gets the page.
func respond(c *echo.Context, status int, data any, page func() error) error {
	if !wantsJSON(c) {
		return page()
	}
	if a, ok := data.(answer); ok && !a.OK && a.Title == "" {
		a.Title = msgOops
		data = a
	}
	return c.JSON(status, data)
}

func respondOK(c *echo.Context, a answer, url string) error {
	a.OK = true
	return respond(c, http.StatusOK, a, func() error { return seeOther(c, url) })
}

func wantsJSON(c *echo.Context) bool {
	for _, a := range c.Request().Header.Values(echo.HeaderAccept) {
		if a == echo.MIMEApplicationJSON {
			return true
		}
	}
	return false
}

// A page is rendered whole into a pooled buffer, then written and compressed
// once: rendered into the response, templ would flush 4 KB blocks through
// the compressor, and a page failing half-way would have sent its first half.
//
// A page that could not ask the provider everything it needed because this
// instance had too many calls in flight is, whatever it made of the
// missing answers, the Russian 503 with Retry-After: the customer tries
// again in a minute rather than reading half a page. A form sent (POST)
// keeps its page, with the same text at the failure, and Retry-After.
func render(c *echo.Context, status int, comp templ.Component) error {
	if m := c.Request().Method; gateway.Busy(c.Request().Context()) && (m == http.MethodGet || m == http.MethodHead) {
		c.Response().Header().Set(echo.HeaderRetryAfter, busyRetry) // HEAD's answer has no page
		return errBusy
	}
	return renderPage(c, status, comp)
}

// busyRetry is Retry-After, in seconds, when the provider was not asked.
const busyRetry = "60"

// renderPage is render without its look at the provider's calls: the
// error pages' own. It adds Retry-After to any page answered after a call
// was refused; that refusal cancelled the page's other calls, not its
// rendering.
func renderPage(c *echo.Context, status int, comp templ.Component) error {
	ctx := c.Request().Context()
	if gateway.Busy(ctx) {
		c.Response().Header().Set(echo.HeaderRetryAfter, busyRetry)
		ctx = context.WithoutCancel(ctx)
	}
	buf := pageBuffers.Get().(*bytes.Buffer)
	defer putPageBuffer(buf)
	ctx = templ.WithNonce(ctx, nonce(c))
	if err := comp.Render(ctx, buf); err != nil {
		return err
	}
	return writePage(c, status, buf.Bytes())
}

// A buffer grown far past the largest page (40 KB) is left to the collector.
var pageBuffers = sync.Pool{New: func() any { return bytes.NewBuffer(make([]byte, 0, 32<<10)) }}

func putPageBuffer(b *bytes.Buffer) {
	if b.Cap() > 256<<10 {
		return
	}
	b.Reset()
	pageBuffers.Put(b)
}

func seeOther(c *echo.Context, url string) error {
	return c.Redirect(http.StatusSeeOther, url)
}

func seconds(d time.Duration) int {
	return int((d + time.Second - 1) / time.Second)
}

func firstError(errs views.Errors) string {
	if len(errs) == 0 {
		return ""
	}
	return errs[0].Message
}
