package web

import (
	"bytes"
	"context"
	"net/http"
	"sync"

	"github.com/a-h/templ"
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

func RespondOK(c *echo.Context, a Answer, url string) error {
	a.OK = true
	return Respond(c, http.StatusOK, a, func() error { return SeeOther(c, url) })
}

func WantsJSON(c *echo.Context) bool {
	for _, a := range c.Request().Header.Values(echo.HeaderAccept) {
		if a == echo.MIMEApplicationJSON {
			return true
		}
	}
	return false
}

// A page is rendered whole into a pooled buffer, so a failure half-way sends
// nothing. A page with a provider call refused for want of room is the Russian
// 503 with Retry-After, not half a page; a form sent keeps its page.
func (k *Kit) Render(c *echo.Context, status int, comp templ.Component) error {
	if m := c.Request().Method; k.Calls.Refused(c.Request().Context()) && (m == http.MethodGet || m == http.MethodHead) {
		c.Response().Header().Set(echo.HeaderRetryAfter, BusyRetry) // HEAD's answer has no page
		return ErrBusy
	}
	return k.RenderPage(c, status, comp)
}

// BusyRetry is Retry-After, in seconds, when the provider was not asked.
const BusyRetry = "60"

// RenderPage is Render without its look at the provider's calls, for error
// pages; it adds Retry-After to a page answered after a call was refused.
func (k *Kit) RenderPage(c *echo.Context, status int, comp templ.Component) error {
	ctx := c.Request().Context()
	if k.Calls.Refused(ctx) {
		c.Response().Header().Set(echo.HeaderRetryAfter, BusyRetry)
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

// A buffer grown far past the largest page (40 KB) is left to the collector.
var pageBuffers = sync.Pool{New: func() any { return bytes.NewBuffer(make([]byte, 0, 32<<10)) }}

func putPageBuffer(b *bytes.Buffer) {
	if b.Cap() > 256<<10 {
		return
	}
	b.Reset()
	pageBuffers.Put(b)
}

func SeeOther(c *echo.Context, url string) error {
	return c.Redirect(http.StatusSeeOther, url)
}
