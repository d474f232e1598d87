package handlers_test

import (
	"compress/gzip"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/labstack/echo/v5"
	"github.com/labstack/echo/v5/middleware"

	"lk/gateway/sandbox"
	"lk/handlers/web"
)

// gzipGet asks for path as a browser does, accepting gzip, and answers the
// raw body as sent.
func (a *app) gzipGet(path string) (*http.Response, []byte) {
	a.t.Helper()
	// Set by hand, the header makes the transport leave the body compressed.
	r := a.send(http.MethodGet, path, http.Header{"Accept-Encoding": {"gzip"}})
	return r.Response, []byte(r.body)
}

// firstFlight is what path's answer costs in the first round trip, its
// gzip-compressed body and its headers in bytes, and the page itself.
func (a *app) firstFlight(path string) (int, string) {
	a.t.Helper()
	res, raw := a.gzipGet(path)
	if res.Header.Get("Content-Encoding") != "gzip" {
		a.t.Fatalf("%s: not gzip-compressed", path)
	}
	n := len(raw) + 20
	for k, vs := range res.Header {
		for _, v := range vs {
			n += len(k) + len(v) + 4
		}
	}
	return n, gunzip(a.t, raw)
}

func gunzip(t testing.TB, raw []byte) string {
	t.Helper()
	zr, err := gzip.NewReader(strings.NewReader(string(raw)))
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestCompression(t *testing.T) {
	a := signedIn(t)

	res, raw := a.gzipGet("/orders")
	if res.StatusCode != http.StatusOK || res.Header.Get("Content-Encoding") != "gzip" {
		t.Fatalf("/orders: %d %q, want 200 gzip", res.StatusCode, res.Header.Get("Content-Encoding"))
	}
	if !strings.Contains(res.Header.Get("Vary"), "Accept-Encoding") {
		t.Errorf("/orders: Vary %q lacks Accept-Encoding", res.Header.Get("Vary"))
	}
	if html := gunzip(t, raw); !strings.Contains(html, "</html>") {
		t.Errorf("/orders: not a whole page:\n%.300s", html)
	}

	// Error pages are rendered inside the compression, with their status.
	res, raw = a.gzipGet("/no-such-page")
	if res.StatusCode != http.StatusNotFound || res.Header.Get("Content-Encoding") != "gzip" {
		t.Fatalf("404 page: %d %q, want 404 gzip", res.StatusCode, res.Header.Get("Content-Encoding"))
	}
	if html := gunzip(t, raw); !strings.Contains(html, "Страница не найдена") {
		t.Errorf("404 page lacks its Russian title:\n%.300s", html)
	}
	if m := a.metrics(); !strings.Contains(m, `status="404"`) {
		t.Error("the access log and metrics no longer see the status sent through the compression")
	}

	// PDFs are compressed already: they go as they are.
	res, raw = a.gzipGet("/orders/aqua/" + sandbox.DemoAquaPaid + "/ticket.pdf")
	if res.StatusCode != http.StatusOK || res.Header.Get("Content-Encoding") != "" || !strings.HasPrefix(string(raw), "%PDF") {
		t.Errorf("ticket: %d %q %q, want 200, no Content-Encoding, a PDF", res.StatusCode, res.Header.Get("Content-Encoding"), raw[:min(8, len(raw))])
	}

	// A client that does not accept gzip gets plain HTML.
	plain := a.newClient()
	tr := plain.Transport.(*http.Transport).Clone()
	tr.DisableCompression = true
	plain.Transport = tr
	r := a.getWith(plain, "/login")
	if r.StatusCode != http.StatusOK || r.Header.Get("Content-Encoding") != "" || !strings.Contains(r.body, "</html>") {
		t.Errorf("/login without gzip: %d %q", r.StatusCode, r.Header.Get("Content-Encoding"))
	}
}

// BenchmarkCompressPage compresses the order list, written whole with its
// length as render writes it, through echo's Gzip (what we had) and through
// ours at several levels. Compare allocations and bytes per page, not times:
//
//	go test ./handlers/ -run '^$' -bench CompressPage -benchmem
func BenchmarkCompressPage(b *testing.B) {
	a := newApp(b)
	a.signIn(a.client, demoPhone)
	page := a.get("/orders").body
	cases := []struct {
		name string
		mw   echo.MiddlewareFunc
	}{{"echo-gzip", middleware.Gzip()}}
	for _, level := range []int{-3, 1, 3, 5, 6, 9} { // -3: stateless
		cases = append(cases, struct {
			name string
			mw   echo.MiddlewareFunc
		}{fmt.Sprintf("gzhttp-level-%d", level), web.Compress(level)})
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			e := echo.New()
			e.Use(c.mw)
			e.GET("/", func(c *echo.Context) error {
				w := c.Response()
				w.Header().Set(echo.HeaderContentType, echo.MIMETextHTMLCharsetUTF8)
				w.Header().Set(echo.HeaderContentLength, strconv.Itoa(len(page)))
				_, err := io.WriteString(w, page)
				return err
			})
			size := 0
			for b.Loop() {
				req := httptest.NewRequest(http.MethodGet, "/", nil)
				req.Header.Set("Accept-Encoding", "gzip")
				rec := httptest.NewRecorder()
				e.ServeHTTP(rec, req)
				if rec.Header().Get("Content-Encoding") != "gzip" {
					b.Fatal("not compressed")
				}
				size = rec.Body.Len()
			}
			b.ReportMetric(float64(len(page)), "page-bytes")
			b.ReportMetric(float64(size), "gzip-bytes")
		})
	}
}

// A page is rendered whole and compressed once: written with its length and
// never flushed through the compressor half-way (templ flushes its own 4 KB
// buffer when it writes to a response, and each flush makes the compressor
// close a block: CPU and bytes for nothing). The recorder sits where the
// network is, so it sees every flush that reaches the connection.
func TestPageIsWrittenOnceWithItsLength(t *testing.T) {
	a := signedIn(t)
	u, _ := url.Parse(a.srv.URL)
	for _, path := range []string{"/orders", "/orders/hotel/" + sandbox.DemoHotelPaid, "/no-such-page"} {
		for _, enc := range []string{"gzip", ""} {
			req := httptest.NewRequest(http.MethodGet, a.srv.URL+path, nil)
			for _, c := range a.client.Jar.Cookies(u) {
				req.AddCookie(c)
			}
			if enc != "" {
				req.Header.Set("Accept-Encoding", enc)
			}
			rec := httptest.NewRecorder()
			a.srv.Config.Handler.ServeHTTP(rec, req)
			res := rec.Result()
			if res.StatusCode != http.StatusOK && path != "/no-such-page" {
				t.Fatalf("%s: %d", path, res.StatusCode)
			}
			if rec.Flushed {
				t.Errorf("%s (%q): flushed mid-page", path, enc)
			}
			if cl := res.Header.Get("Content-Length"); cl != strconv.Itoa(rec.Body.Len()) {
				t.Errorf("%s (%q): Content-Length %q for a body of %d bytes", path, enc, cl, rec.Body.Len())
			}
			html := rec.Body.String()
			if enc == "gzip" {
				if res.Header.Get("Content-Encoding") != "gzip" || !strings.Contains(res.Header.Get("Vary"), "Accept-Encoding") {
					t.Fatalf("%s: not compressed: %v", path, res.Header)
				}
				html = gunzip(t, rec.Body.Bytes()) // checks the length and checksum too
			}
			// The whole page, stylesheet and all, in one piece.
			if !strings.HasSuffix(strings.TrimSpace(html), "</html>") || strings.Count(html, "<style") != 1 ||
				!strings.Contains(html, ".field-label{font-weight:600}") {
				t.Errorf("%s (%q): not a whole page:\n%.300s", path, enc, html)
			}
		}
	}
}
