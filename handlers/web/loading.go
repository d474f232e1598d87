package web

import (
	"bytes"
	"cmp"
	"compress/gzip"
	"html"
	"io"
	"log/slog"
	"maps"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/labstack/echo/v5"

	"lk/views"
)

// loadingAfter is how long a page may wait on the provider in silence before
// its frame and 'Загружаем…' go first; faster answers keep their status.
const loadingAfter = 300 * time.Millisecond

// loading is the frame a slow page sends first.
type loading struct {
	sessions *Sessions
	calls    Calls
	frames   *frames
	after    time.Duration
	log      *slog.Logger
}

// Loading sends a page's frame (status 200) when, after (0: 300 ms) since it
// began, it has waited on a provider call for at least half that long and
// still does: a slow provider, not a busy server. The answer follows in the
// same document; a failure becomes the Russian error text, a redirect a link
// with a refresh.
func Loading(sessions *Sessions, calls Calls, site *views.Site, assets *views.Assets, after time.Duration, log *slog.Logger) echo.MiddlewareFunc {
	l := &loading{sessions, calls, &frames{site: site, assets: assets}, cmp.Or(after, loadingAfter), log}
	return l.page
}

func (l *loading) page(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c *echo.Context) error {
		// A landing after an action clears its notice with a cookie, which must go with the headers.
		if c.Request().Method != http.MethodGet || WantsJSON(c) || l.sessions.hasNotice(c.Request()) {
			return next(c)
		}
		out, r := c.Response(), c.Request() // c is the page's until it is done
		ctx, waiting := l.calls.Follow(r.Context())
		c.SetRequest(r.WithContext(ctx))
		rec := &pageRecorder{out: out, header: out.Header().Clone()}
		c.SetResponse(echo.NewResponse(rec, c.Echo().Logger))
		f := l.startFrame(c, out, waiting)
		if err := l.runPage(c, next); err != nil {
			c.Echo().HTTPErrorHandler(c, err)
		}
		c.SetResponse(out)
		stream, sent := f.stop()
		if !sent {
			return rec.replay(out)
		}
		c.Set(keyPageStatus, cmp.Or(rec.status, http.StatusOK))
		if stream == nil { // the customer has gone
			return ErrAnswered
		}
		// The notice goes by a style of the page's own nonce: no script.
		late := append([]byte(`<style nonce="`+html.EscapeString(Nonce(c))+`">#lk-loading{display:none}</style>`+
			metaStatus+strconv.Itoa(cmp.Or(rec.status, http.StatusOK))+`">`), rec.late()...)
		if err := stream.end(late); err != nil {
			return ErrAnswered
		}
		return nil
	}
}

// framer sends the frame from its timer's goroutine; only the frame writes to
// the response until the page is done.
type framer struct {
	after   time.Duration
	waiting func() (time.Time, bool)
	send    func() (*frameStream, error)

	mu     sync.Mutex
	t      *time.Timer
	done   bool // the page is done: no frame after this
	sent   bool // the frame is going or went
	stream *frameStream
	went   chan struct{} // closed once the frame is sent (or failed)
}

func (l *loading) startFrame(c *echo.Context, out http.ResponseWriter, waiting func() (time.Time, bool)) *framer {
	signedIn, name := false, ""
	if sess := SessionOf(c); sess != nil {
		signedIn, name = true, sess.Name
	}
	nav := ""
	switch path := c.Request().URL.Path; { // the menu stays as the page has it
	case path == views.PathHome:
		nav = views.NavHome
	case strings.HasPrefix(path, views.PathOrders):
		nav = views.NavOrders
	}
	n := Nonce(c)
	f := &framer{after: l.after, waiting: waiting, went: make(chan struct{})}
	f.send = func() (*frameStream, error) {
		fr, err := l.frames.get(nav, signedIn, name != "")
		if err != nil {
			return nil, err
		}
		return fr.send(out, n, name)
	}
	f.mu.Lock()
	f.t = time.AfterFunc(l.after, f.tick)
	f.mu.Unlock()
	return f
}

// tick sends the frame if the page waits on the provider, else looks again later.
func (f *framer) tick() {
	f.mu.Lock()
	if f.done {
		f.mu.Unlock()
		return
	}
	if since, waiting := f.waiting(); !waiting || time.Since(since) < f.after/2 {
		f.t.Reset(f.after / 4)
		f.mu.Unlock()
		return
	}
	f.sent = true
	f.mu.Unlock()
	stream, err := f.send()
	if err == nil {
		f.stream = stream
	}
	close(f.went)
}

// stop tells whether the frame went and the stream the page must end (nil if unsent).
func (f *framer) stop() (*frameStream, bool) {
	f.mu.Lock()
	f.done = true
	sent := f.sent
	f.t.Stop()
	f.mu.Unlock()
	if !sent {
		return nil, false
	}
	<-f.went
	return f.stream, true
}

// runPage turns a panic into the Russian error page: after a framed 200 it
// must follow in the same document, not as echo's own 500.
func (l *loading) runPage(c *echo.Context, next echo.HandlerFunc) (err error) {
	defer func() {
		if v := recover(); v != nil {
			l.log.ErrorContext(c.Request().Context(), "page panicked", "path", c.Request().URL.Path, "panic", v)
			err = &Error{Status: http.StatusInternalServerError, Title: MsgServerTitle, Message: MsgRequestFailed}
		}
	}()
	return next(c)
}

// pageRecorder keeps a page's answer until it is known whether the frame went
// first; it unwraps to the response, so the page compresses itself as usual.
type pageRecorder struct {
	out    http.ResponseWriter
	header http.Header
	status int
	body   bytes.Buffer
}

func (r *pageRecorder) Header() http.Header         { return r.header }
func (r *pageRecorder) Unwrap() http.ResponseWriter { return r.out }

func (r *pageRecorder) WriteHeader(code int) {
	if r.status == 0 {
		r.status = code
	}
}

func (r *pageRecorder) Write(b []byte) (int, error) {
	r.WriteHeader(http.StatusOK)
	return r.body.Write(b)
}

// replay sends the answer as the page made it: its status, headers and bytes.
func (r *pageRecorder) replay(out http.ResponseWriter) error {
	h := out.Header()
	clear(h)
	maps.Copy(h, r.header)
	if r.status == 0 {
		r.status = http.StatusOK
	}
	out.WriteHeader(r.status)
	_, err := out.Write(r.body.Bytes())
	return err
}

// late is what follows the frame: the page's title and head after the
// stylesheet, then its <main> to the end; anything else becomes a Russian notice.
func (r *pageRecorder) late() []byte {
	if loc := r.header.Get(echo.HeaderLocation); r.status >= 300 && r.status < 400 && loc != "" {
		u := html.EscapeString(loc)
		return []byte(`<title>Переход — Личный кабинет</title><meta http-equiv="refresh" content="0;url=` + u +
			`"><main id="main" class="wrap"><p><a href="` + u + `">` + msgContinue + `</a></p></main></body></html>`)
	}
	page := r.body.Bytes()
	if r.header.Get(echo.HeaderContentEncoding) == "gzip" {
		zr, err := gzip.NewReader(bytes.NewReader(page))
		if err == nil {
			page, err = io.ReadAll(zr)
		}
		if err != nil {
			page = nil
		}
	}
	title, _ := between(page, "<title>", "</title>")
	scripts, _ := between(page, "</style>", "</head>")
	i := bytes.Index(page, []byte(`<main`))
	if title == nil || i < 0 {
		return []byte(`<main id="main" class="wrap"><div class="card narrow" role="alert"><h1>` + MsgServerTitle + `</h1><p>` +
			MsgRequestFailed + `</p></div></main></body></html>`)
	}
	out := make([]byte, 0, len(page)-i+len(title)+len(scripts)+15)
	out = append(append(append(out, "<title>"...), title...), "</title>"...)
	out = append(out, scripts...)
	return append(out, page[i:]...)
}

// between is what lies between the first from and the to after it.
func between(b []byte, from, to string) ([]byte, bool) {
	_, rest, ok := bytes.Cut(b, []byte(from))
	if !ok {
		return nil, false
	}
	in, _, ok := bytes.Cut(rest, []byte(to))
	return in, ok
}
