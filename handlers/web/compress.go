package web

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"net/http"
	"strings"
	"sync"

	"github.com/klauspost/compress/flate"
	"github.com/klauspost/compress/gzhttp"
	"github.com/labstack/echo/v5"
)

// GzipLevel 5: pages about 3 % larger than the default in half its time.
const GzipLevel = 5

// A writer (about 1 MB) is taken only at a body's first kilobyte, so a request
// waiting for the provider holds none; compressed answers pass through.
func Compress(level int) echo.MiddlewareFunc {
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
			// Later middleware must see the response it was given, with the status sent.
			c.SetResponse(outer)
			return err
		}
	}
}

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

func gzipAccepted(w http.ResponseWriter) bool {
	for {
		switch w.(type) {
		case *gzhttp.GzipResponseWriter, gzhttp.GzipResponseWriterWithCloseNotify:
			return true
		}
		u, ok := w.(interface{ Unwrap() http.ResponseWriter })
		if !ok {
			return false
		}
		w = u.Unwrap()
	}
}

// The inline stylesheet, half of every page, is compressed once and spliced
// in; each part ends on a sync flush and refers into no other.
func gzipPage(out *bytes.Buffer, page []byte) error {
	zw := deflaters.Get().(*flate.Writer)
	defer deflaters.Put(zw)
	out.Write(gzipHeader[:])
	rest := page
	if head, css, tail := splitStyle(page); css != nil {
		if deflated := deflatedStyle(css); deflated != nil {
			zw.Reset(out)
			if _, err := zw.Write(head); err != nil {
				return err
			}
			if err := zw.Flush(); err != nil {
				return err
			}
			out.Write(deflated)
			rest = tail
		}
	}
	zw.Reset(out)
	if _, err := zw.Write(rest); err != nil {
		return err
	}
	if err := zw.Close(); err != nil {
		return err
	}
	var trailer [8]byte
	binary.LittleEndian.PutUint32(trailer[:4], crc32.ChecksumIEEE(page))
	binary.LittleEndian.PutUint32(trailer[4:], uint32(len(page)))
	out.Write(trailer[:])
	return nil
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

var gzipHeader = [10]byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255}

var deflaters = sync.Pool{New: func() any {
	zw, _ := flate.NewWriter(nil, GzipLevel) // the level is a valid constant
	return zw
}}

func splitStyle(page []byte) (head, css, tail []byte) {
	i := bytes.Index(page, []byte("<style"))
	if i < 0 {
		return page, nil, nil
	}
	j := bytes.IndexByte(page[i:], '>')
	if j < 0 {
		return page, nil, nil
	}
	start := i + j + 1
	n := bytes.Index(page[start:], []byte("</style>"))
	if n < 1<<10 {
		return page, nil, nil
	}
	return page[:start], page[start : start+n], page[start+n:]
}

// There is one stylesheet; the bound only keeps a bug from growing it.
var styles struct {
	mu sync.RWMutex
	m  map[string][]byte
}

const maxStyles = 4

func deflatedStyle(css []byte) []byte {
	styles.mu.RLock()
	d, ok := styles.m[string(css)]
	styles.mu.RUnlock()
	if ok {
		return d
	}
	var b bytes.Buffer
	zw, _ := flate.NewWriter(&b, flate.BestCompression)
	if _, err := zw.Write(css); err != nil {
		return nil
	}
	if err := zw.Flush(); err != nil {
		return nil
	}
	styles.mu.Lock()
	defer styles.mu.Unlock()
	if styles.m == nil {
		styles.m = map[string][]byte{}
	}
	if len(styles.m) >= maxStyles {
		return nil
	}
	styles.m[string(css)] = b.Bytes()
	return b.Bytes()
}

// deflateOnce is b deflated at the best level, flushed to a byte boundary and
// referring to nothing before it.
func deflateOnce(b []byte) []byte {
	var out bytes.Buffer
	zw, _ := flate.NewWriter(&out, flate.BestCompression) // a valid constant level
	_, _ = zw.Write(b)                                    // a bytes.Buffer takes everything
	_ = zw.Flush()
	return out.Bytes()
}
