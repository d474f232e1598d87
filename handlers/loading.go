package handlers

import (
	"bytes"
	"compress/gzip"
	"context"
	"html"
	"io"
	"maps"
	"net/http"
	"strings"
	"time"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v5"

	"lk/views"
)

// loadingAfter is the moment a page may keep the customer waiting in
// silence: an answer that takes longer is preceded by the page's frame and
// 'Загружаем…'. Faster answers, and everything refused at once (a foreign
// order, a full instance), keep their status and bytes.
const loadingAfter = 300 * time.Millisecond

// loading runs a page that waits for the provider. When its answer is not
// ready within loadingAfter, the frame is sent and flushed (status 200: the
// status line cannot wait), and the answer follows in the same document:
// its title, its scripts and its <main>; a failure is the Russian error
// page's text, a redirect a link with a refresh. HEAD and an island's JSON
// get the answer as it is. What the page would have set in its headers
// after the frame (the offline copy's marks) is left out.
func (s *Server) loading(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c *echo.Context) error {
		// A landing after an action clears its notice with a cookie, which
		// must go with the headers: it waits as it always did.
		if c.Request().Method != http.MethodGet || wantsJSON(c) || s.sessions.HasNotice(c.Request()) {
			return next(c)
		}
		out, ctx := c.Response(), c.Request().Context() // c is the page's until it is done
		rec := &pageRecorder{out: out, header: out.Header().Clone()}
		frame := views.Page{Nonce: nonce(c), Site: s.site, Assets: s.assets}
		if sess := session(c); sess != nil {
			frame.User = &views.User{Name: sess.Name}
		}
		switch path := c.Request().URL.Path; { // the menu stays as the page has it
		case path == views.PathHome:
			frame.Nav = views.NavHome
		case strings.HasPrefix(path, views.PathOrders):
			frame.Nav = views.NavOrders
		}
		c.SetResponse(echo.NewResponse(rec, c.Echo().Logger))
		// The page runs here, on the connection's goroutine, whose stack has
		// already grown to what a page needs; the frame, when the page is
		// slow, is sent from the timer's goroutine, and only the frame
		// writes to the response while the page runs.
		framed := make(chan error, 1)
		t := time.AfterFunc(s.loadingAfter, func() { framed <- s.sendFrame(ctx, out, frame) })
		if err := s.runPage(c, next); err != nil {
			s.handleError(c, err)
		}
		c.SetResponse(out)
		if t.Stop() { // the frame never went
			return rec.replay(out)
		}
		if err := <-framed; err != nil { // the customer has gone
			return errAnswered
		}
		// The notice goes as the page comes, by a style of the page's own nonce:
		// no script.
		if _, err := out.Write(append([]byte(`<style nonce="`+html.EscapeString(frame.Nonce)+`">#lk-loading{display:none}</style>`), rec.late()...)); err != nil {
			return errAnswered
		}
		return nil
	}
}

// runPage runs the page and turns a panic into the Russian error page: the
// frame may already have gone with status 200, so the page's error must
// follow it in the same document, not as echo's own 500.
func (s *Server) runPage(c *echo.Context, next echo.HandlerFunc) (err error) {
	defer func() {
		if v := recover(); v != nil {
			s.log.Error("page panicked", "path", c.Request().URL.Path, "panic", v)
			err = &httpError{http.StatusInternalServerError, msgServerTitle, msgRequestFailed}
		}
	}()
	return next(c)
}

func (s *Server) sendFrame(ctx context.Context, out http.ResponseWriter, p views.Page) error {
	var b bytes.Buffer
	ctx = templ.WithNonce(ctx, p.Nonce)
	b.WriteString("<!DOCTYPE html><html lang=\"ru\"><head>")
	if err := views.LoadingHead(p).Render(ctx, &b); err != nil {
		return err
	}
	b.WriteString("</head><body>")
	if err := views.LoadingTop(p).Render(ctx, &b); err != nil {
		return err
	}
	h := out.Header()
	h.Set(echo.HeaderContentType, echo.MIMETextHTMLCharsetUTF8)
	h.Del(echo.HeaderContentLength)
	out.WriteHeader(http.StatusOK)
	if _, err := out.Write(b.Bytes()); err != nil {
		return err
	}
	return http.NewResponseController(out).Flush()
}

// pageRecorder keeps a page's answer until it is known whether the frame
// went first. It unwraps to the response, so that a page compresses itself
// as it would there.
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

// late is what follows the frame: the page's title and the rest of its
// head after the stylesheet (its islands' scripts), then its <main> to the
// end. What is not such a page becomes a Russian notice.
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
		return []byte(`<main id="main" class="wrap"><div class="card narrow" role="alert"><h1>` + msgServerTitle + `</h1><p>` +
			msgRequestFailed + `</p></div></main></body></html>`)
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
