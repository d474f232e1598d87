package handlers

import (
	"bytes"
	"net/http"
	"sync"
	"time"

	"lk/views"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v5"
)

// answer is what an island gets instead of a page: every JSON answer of
// the account but an island's data (a day's choices or hours).
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

// respond is the one fork between an island's fetch, which asked for JSON
// and gets data (an answer that is not OK is titled 'Ой!'), and a plain
// request, which gets the page.
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

// respondOK answers a successful step: JSON a for an island, otherwise a
// 303 to url.
func respondOK(c *echo.Context, a answer, url string) error {
	a.OK = true
	return respond(c, http.StatusOK, a, func() error { return seeOther(c, url) })
}

// wantsJSON tells an island's fetch from a plain form post.
func wantsJSON(c *echo.Context) bool {
	for _, a := range c.Request().Header.Values(echo.HeaderAccept) {
		if a == echo.MIMEApplicationJSON {
			return true
		}
	}
	return false
}

// render writes a templ component with the given status. The page is
// rendered whole into a pooled buffer first and then written once, with its
// length, compressed once (writePage): rendered straight into the response,
// templ flushes its own 4 KB buffer through the compressor, which then
// closes a block mid-page, and a page that fails half-way would already have
// sent its first half. No page is long enough to be worth streaming.
func render(c *echo.Context, status int, comp templ.Component) error {
	buf := pageBuffers.Get().(*bytes.Buffer)
	defer putPageBuffer(buf)
	ctx := templ.WithNonce(c.Request().Context(), nonce(c))
	if err := comp.Render(ctx, buf); err != nil {
		return err
	}
	return writePage(c, status, buf.Bytes())
}

// pageBuffers holds the buffers pages are rendered into. The largest page
// is about 40 KB; a buffer that grew far past that (a page of a customer
// with hundreds of orders) is left to the collector rather than kept.
var pageBuffers = sync.Pool{New: func() any { return bytes.NewBuffer(make([]byte, 0, 32<<10)) }}

func putPageBuffer(b *bytes.Buffer) {
	if b.Cap() > 256<<10 {
		return
	}
	b.Reset()
	pageBuffers.Put(b)
}

// seeOther is the answer to a successful POST.
func seeOther(c *echo.Context, url string) error {
	return c.Redirect(http.StatusSeeOther, url)
}

// seconds is d in whole seconds, rounded up: what Retry-After and a
// countdown show.
func seconds(d time.Duration) int {
	return int((d + time.Second - 1) / time.Second)
}

// firstError is the message of the first rule a form broke, which an
// island shows.
func firstError(errs views.Errors) string {
	if len(errs) == 0 {
		return ""
	}
	return errs[0].Message
}
