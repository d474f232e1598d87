package web

import (
	"bytes"
	"compress/gzip"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strconv"
	"strings"
	"sync"

	"github.com/labstack/echo/v5"
)

// StaticFiles serves static/: hashed files cached for a year, the rest for a
// day, gzipped once (gzipCache); a Range request gets its part uncompressed.
func StaticFiles(files fs.FS) echo.HandlerFunc {
	st := &static{files: files}
	return st.serve
}

type static struct {
	files   fs.FS
	gzipped gzipCache
}

func (st *static) serve(c *echo.Context) error {
	name := strings.TrimPrefix(c.Param("*"), "/")
	if name == "" || strings.Contains(name, "..") || strings.HasPrefix(name, "dist/.vite/") {
		return ErrNotFound
	}
	if _, err := fs.Stat(st.files, name); err != nil {
		return ErrNotFound
	}
	cache := "public, max-age=86400"
	if strings.HasPrefix(name, "dist/") {
		cache = "public, max-age=31536000, immutable"
	}
	h := c.Response().Header()
	h.Set(echo.HeaderCacheControl, cache)
	r := c.Request()
	if r.Header.Get("Range") == "" && acceptsGzip(r.Header.Get(echo.HeaderAcceptEncoding)) {
		if f := st.gzipped.file(st.files, name); f.body != nil {
			h.Set(echo.HeaderContentType, f.contentType)
			h.Set(echo.HeaderContentEncoding, "gzip")
			h.Set(echo.HeaderVary, echo.HeaderAcceptEncoding)
			h.Set(echo.HeaderContentLength, strconv.Itoa(len(f.body)))
			c.Response().WriteHeader(http.StatusOK)
			if r.Method == http.MethodHead {
				return nil
			}
			_, err := c.Response().Write(f.body)
			return err
		}
	}
	return c.FileFS(name, st.files)
}

// gzipCache keeps each compressible static file gzipped at the best level,
// made at its first request: the files never change while the server runs.
// It holds at most one entry per file of static/, whatever requests ask for.
type gzipCache struct {
	mu    sync.Mutex
	files map[string]*gzipFile
}

type gzipFile struct {
	once        sync.Once
	contentType string
	body        []byte // nil: served as it is (not compressible, or no smaller)
}

// file is name's entry, compressed by the first caller while the others wait.
func (g *gzipCache) file(static fs.FS, name string) *gzipFile {
	g.mu.Lock()
	if g.files == nil {
		g.files = map[string]*gzipFile{}
	}
	f, ok := g.files[name]
	if !ok {
		f = &gzipFile{}
		g.files[name] = f
	}
	g.mu.Unlock()
	f.once.Do(func() {
		f.contentType = mime.TypeByExtension(path.Ext(name))
		if f.contentType == "" || !compressible(f.contentType) {
			return
		}
		raw, err := fs.ReadFile(static, name)
		if err != nil {
			return // served as it is, by the file server, which says what failed
		}
		var buf bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression) // a valid level: no error
		if _, err := zw.Write(raw); err != nil || zw.Close() != nil || buf.Len() >= len(raw) {
			return
		}
		f.body = buf.Bytes()
	})
	return f
}

// acceptsGzip: Accept-Encoding names gzip, or else "*", with q above zero.
func acceptsGzip(header string) bool {
	star := false
	for part := range strings.SplitSeq(header, ",") {
		coding, params, _ := strings.Cut(part, ";")
		coding = strings.ToLower(strings.TrimSpace(coding))
		if coding != "gzip" && coding != "*" {
			continue
		}
		q := 1.0
		for p := range strings.SplitSeq(params, ";") {
			if k, v, ok := strings.Cut(p, "="); ok && strings.EqualFold(strings.TrimSpace(k), "q") {
				var err error
				if q, err = strconv.ParseFloat(strings.TrimSpace(v), 64); err != nil {
					q = 0
				}
			}
		}
		if coding == "gzip" {
			return q > 0
		}
		star = q > 0
	}
	return star
}
