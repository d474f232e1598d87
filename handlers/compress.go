package handlers

import (
	"net/http"
	"strings"

	"github.com/klauspost/compress/gzhttp"
	"github.com/labstack/echo/v5"
)

// gzipLevel was chosen by measurement (BenchmarkCompressPage): at level 5
// klauspost/compress makes pages about 3 % larger than the standard
// library's default level in well under half its time; level 6 saves
// another 2 % of bytes for about a fifth more time. A writer is about 1 MB
// at any level: what saves memory is taking it late, not the level.
const gzipLevel = 5

// compress gzips what is worth compressing. The writers come from a pool
// and are taken only when the first kilobyte of a body is written, so a
// request waiting for the provider holds none (echo's Gzip took one, which
// grows to about 800 KB, for every request in flight). PDFs, images and other
// already-compressed answers pass through as they are.
func compress(level int) echo.MiddlewareFunc {
	wrap, err := gzhttp.NewWrapper(
		gzhttp.CompressionLevel(level),
		gzhttp.EnableZstd(false), // gzip only: the first-flight budget is measured in gzip
		gzhttp.ContentTypeFilter(compressible),
	)
	if err != nil {
		panic(err) // only a level out of range, a programming error
	}
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c *echo.Context) error {
			outer := c.Response()
			var err error
			wrap(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				c.SetRequest(r)
				c.SetResponse(echo.NewResponse(w, c.Echo().Logger))
				err = next(c)
			})).ServeHTTP(outer, c.Request())
			// The gzip writer goes back to its pool: later middleware must
			// see the response it was given, with the status sent.
			c.SetResponse(outer)
			return err
		}
	}
}

// compressible tells text (HTML, CSS, JavaScript, JSON, SVG) from the rest.
func compressible(contentType string) bool {
	mt, _, _ := strings.Cut(strings.ToLower(contentType), ";")
	mt = strings.TrimSpace(mt)
	switch {
	case strings.HasPrefix(mt, "text/"),
		mt == "application/javascript", mt == "application/json", mt == "application/xml",
		strings.HasSuffix(mt, "+json"), strings.HasSuffix(mt, "+xml"): // image/svg+xml, manifests
		return true
	}
	return false
}
