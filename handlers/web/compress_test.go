package web

import (
	"bytes"
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
)

// A page compressed with its stylesheet spliced in reads back byte for byte
// with any gzip reader, whatever its shape.
func TestGzipPageReadsBack(t *testing.T) {
	css := strings.Repeat(".card{margin:0 0 1rem;border:1px solid var(--c-line)}\n", 60)
	body := strings.Repeat("<li class=card>Заказ № 400001, 2 500 ₽</li>\n", 200)
	pages := map[string]string{
		"stylesheet":         `<!doctype html><html><head><style nonce="abc">` + css + `</style></head><body>` + body + `</body></html>`,
		"another nonce":      `<!doctype html><html><head><style nonce="xyz">` + css + `</style></head><body>` + body[:99] + `</body></html>`,
		"small stylesheet":   `<html><head><style>a{color:red}</style></head><body>` + body + `</body></html>`,
		"no stylesheet":      `<html><body>` + body + `</body></html>`,
		"two stylesheets":    `<style>` + css + `</style><style>` + css + `</style>` + body,
		"stylesheet at end":  body + `<style>` + css + `</style>`,
		"unclosed style":     `<style>` + css + body,
		"nothing after":      `<style>` + css + `</style>`,
		"stylesheet changed": `<style>` + css + `b{}</style>` + body,
	}
	for name, page := range pages {
		var out bytes.Buffer
		if err := gzipPage(&out, []byte(page)); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got := gunzip(t, out.Bytes()); got != page {
			t.Errorf("%s: read back %d bytes, want %d", name, len(got), len(page))
		}
		if out.Len() > len(page)/2 {
			t.Errorf("%s: %d bytes compressed to %d", name, len(page), out.Len())
		}
	}
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
	ours := allocatedPerRequest(Compress(GzipLevel))
	echos := allocatedPerRequest(middleware.Gzip())
	t.Logf("allocated per request in flight: %d KB here, %d KB with echo's Gzip", ours>>10, echos>>10)
	if ours > 128<<10 {
		t.Errorf("each request in flight allocates %d KB; want well under the 800 KB of a gzip writer", ours>>10)
	}
}
