package web

import (
	"bytes"
	"context"
	"net/http"
	"strconv"

	"github.com/a-h/templ"
	"github.com/klauspost/compress/gzhttp"
	"github.com/labstack/echo/v5"
)

// Answer is every JSON Answer of the account but an island's data.
type Answer struct {
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

// Respond is the one fork between an island's JSON and a plain request's page.
func Respond(c *echo.Context, status int, data any, page func() error) error {
	if !WantsJSON(c) {
		return page()
	}
	if a, ok := data.(Answer); ok && !a.OK && a.Title == "" {
		a.Title = MsgOops
		data = a
	}
	return c.JSON(status, data)
}

func SeeOther(c *echo.Context, url string) error {
	return c.Redirect(http.StatusSeeOther, url)
}

// busyRetry is Retry-After, in seconds, when the provider was not asked.
const busyRetry = "60"

// Render writes a page whole from a pooled buffer, so a failure half-way
// sends nothing. refused: a provider call was refused for want of room; a
// page (GET, HEAD) is then the Russian 503 with Retry-After, not half a page,
// and a form sent keeps its page.
func Render(c *echo.Context, status int, comp templ.Component, refused bool) error {
	if m := c.Request().Method; refused && (m == http.MethodGet || m == http.MethodHead) {
		c.Response().Header().Set(echo.HeaderRetryAfter, busyRetry) // HEAD's answer has no page
		return ErrBusy
	}
	return renderPage(c, status, comp, refused)
}

// renderPage is Render without its 503, for error pages; refused, the page
// says when to try again and is rendered though the request gave up its calls.
func renderPage(c *echo.Context, status int, comp templ.Component, refused bool) error {
	ctx := c.Request().Context()
	if refused {
		c.Response().Header().Set(echo.HeaderRetryAfter, busyRetry)
		ctx = context.WithoutCancel(ctx)
	}
	buf := pageBuffers.Get().(*bytes.Buffer)
	defer putPageBuffer(buf)
	ctx = templ.WithNonce(ctx, Nonce(c))
	if err := comp.Render(ctx, buf); err != nil {
		return err
	}
	return writePage(c, status, buf.Bytes())
}

func writePage(c *echo.Context, status int, page []byte) error {
	w := c.Response()
	h := w.Header()
	h.Set(echo.HeaderContentType, echo.MIMETextHTMLCharsetUTF8)
	if len(page) >= gzhttp.DefaultMinSize && gzipAccepted(w) {
		out := pageBuffers.Get().(*bytes.Buffer)
		defer putPageBuffer(out)
		if err := gzipPage(out, page); err != nil {
			return err
		}
		page = out.Bytes()
		h.Set(echo.HeaderContentEncoding, "gzip")
	}
	h.Set(echo.HeaderContentLength, strconv.Itoa(len(page)))
	w.WriteHeader(status)
	_, err := w.Write(page)
	return err
}
