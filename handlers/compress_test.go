package handlers_test

import (
	"compress/gzip"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/labstack/echo/v5"
	"github.com/labstack/echo/v5/middleware"

	"lk/gateway/sandbox"
	"lk/handlers"
)

// gzipGet asks for path as a browser does, accepting gzip, and answers the
// raw body as sent.
func (a *app) gzipGet(path string) (*http.Response, []byte) {
	a.t.Helper()
	req, _ := http.NewRequest(http.MethodGet, a.srv.URL+path, nil)
	req.Header.Set("Accept-Encoding", "gzip") // set by hand: the transport then leaves the body compressed
	res, err := a.client.Do(req)
	if err != nil {
		a.t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	return res, raw
}

func gunzip(t *testing.T, raw []byte) string {
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

// allocatedPerRequest is what each of 100 requests allocates when all of
// them wait (for the provider, say) and then, one after another, write a
// page of 16 KB: the cost of compression for requests in flight.
func allocatedPerRequest(mw echo.MiddlewareFunc) uint64 {
	const n = 100
	page := strings.Repeat("<li class=card>Заказ № 400001, 2 500 ₽</li>\n", 16<<10/48)
	e := echo.New()
	e.Use(mw)
	entered := sync.WaitGroup{}
	turns := make([]chan struct{}, n)
	for i := range turns {
		turns[i] = make(chan struct{})
	}
	e.GET("/:i", func(c *echo.Context) error {
		var i int
		_, _ = fmt.Sscan(c.Param("i"), &i)
		entered.Done()
		<-turns[i]
		return c.HTML(http.StatusOK, page)
	})
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	before := ms.TotalAlloc
	entered.Add(n)
	done := make([]chan struct{}, n)
	for i := range n {
		done[i] = make(chan struct{})
		go func() {
			defer close(done[i])
			req := httptest.NewRequest(http.MethodGet, fmt.Sprint("/", i), nil)
			req.Header.Set("Accept-Encoding", "gzip")
			e.ServeHTTP(httptest.NewRecorder(), req)
		}()
	}
	entered.Wait()
	for i := range n {
		close(turns[i])
		<-done[i]
	}
	runtime.ReadMemStats(&ms)
	return (ms.TotalAlloc - before) / n
}

// A request waiting for the provider must not hold a compressor: echo's
// Gzip took one for every request in flight, and each grew to about 800 KB
// when it compressed: 300 MB at 200 customers.
func TestCompressionHoldsNoWriterWhileWaiting(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector drops pooled writers on purpose")
	}
	ours := allocatedPerRequest(handlers.Compress(5))
	echos := allocatedPerRequest(middleware.Gzip())
	t.Logf("allocated per request in flight: %d KB here, %d KB with echo's Gzip", ours>>10, echos>>10)
	if ours > 128<<10 {
		t.Errorf("each request in flight allocates %d KB; want well under the 800 KB of a gzip writer", ours>>10)
	}
}

// BenchmarkCompressPage compresses the order list, written in pieces of 4 KB
// and flushed at the end as templ writes, through echo's Gzip (what we had) and through ours at
// several levels. Compare allocations and bytes per page, not times:
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
		}{fmt.Sprintf("gzhttp-level-%d", level), handlers.Compress(level)})
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			e := echo.New()
			e.Use(c.mw)
			e.GET("/", func(c *echo.Context) error {
				w := c.Response()
				w.Header().Set(echo.HeaderContentType, echo.MIMETextHTMLCharsetUTF8)
				for s := page; s != ""; {
					n := min(4096, len(s))
					_, _ = io.WriteString(w, s[:n])
					s = s[n:]
				}
				return http.NewResponseController(w).Flush()
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
