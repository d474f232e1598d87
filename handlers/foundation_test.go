package handlers_test

import (
	"bytes"
	"compress/gzip"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"lk/gateway/sandbox/sandboxtest"
)

func TestHealthz(t *testing.T) {
	a := newApp(t)
	if r := a.get("/healthz"); r.StatusCode != http.StatusOK {
		t.Fatalf("/healthz: %d", r.StatusCode)
	}
	if r := a.get("/readyz"); r.StatusCode != http.StatusOK {
		t.Fatalf("/readyz: %d", r.StatusCode)
	}
}

func TestLoginPageRendersForEveryone(t *testing.T) {
	a := newApp(t)
	r := a.get("/login")
	if r.StatusCode != http.StatusOK {
		t.Fatalf("status %d", r.StatusCode)
	}
	if got := r.text("title"); !strings.Contains(got, "Авторизация") {
		t.Errorf("title %q", got)
	}
	if got := r.text("h1"); got != "Авторизация" {
		t.Errorf("h1 %q", got)
	}
	if r.doc.Find(`html[lang="ru"]`).Length() != 1 {
		t.Error("no <html lang=ru>")
	}
	if got := r.text(`form[action="/login"] button[type=submit]`); got != "Войти" {
		t.Errorf("button %q", got)
	}
	if r.doc.Find(`input[name=phone][type=tel]`).Length() != 1 {
		t.Error("no phone field")
	}
	if !strings.Contains(r.doc.Text(), "Нет аккаунта?") || r.doc.Find(`a[href="/signup"]`).Length() == 0 {
		t.Error("no 'Нет аккаунта?' with a link to /signup")
	}
	if d, _ := r.doc.Find(`meta[name=description]`).Attr("content"); d == "" {
		t.Error("no meta description")
	}
	if rb, _ := r.doc.Find(`meta[name=robots]`).Attr("content"); !strings.HasPrefix(rb, "index") {
		t.Errorf("login must be indexable, robots %q", rb)
	}
	for _, want := range []string{"Личный кабинет", "На главный сайт", "+7 (800) 000-00-00"} {
		if !strings.Contains(r.text("header"), want) {
			t.Errorf("header lacks %q", want)
		}
	}
}

func TestSecurityHeadersOnEveryHTMLAnswer(t *testing.T) {
	a := newApp(t)
	for _, path := range []string{"/login", "/signup", "/no-such-page"} {
		r := a.get(path)
		csp := r.Header.Get("Content-Security-Policy")
		for _, want := range []string{"object-src 'none'", "base-uri 'none'", "frame-ancestors 'none'", "script-src 'self' 'nonce-"} {
			if !strings.Contains(csp, want) {
				t.Errorf("%s: CSP %q lacks %q", path, csp, want)
			}
		}
		m := regexp.MustCompile(`'nonce-([^']+)'`).FindStringSubmatch(csp)
		if m == nil {
			t.Fatalf("%s: no nonce in CSP", path)
		}
		r.doc.Find("script[src], style").Each(func(_ int, s *goquery.Selection) {
			if n, _ := s.Attr("nonce"); n != m[1] {
				t.Errorf("%s: <%s> without the page's nonce", path, goquery.NodeName(s))
			}
		})
		if r.doc.Find("script:not([src]):not([type='application/json'])").Length() > 0 {
			t.Errorf("%s: inline script", path)
		}
		for h, want := range map[string]string{
			"X-Content-Type-Options": "nosniff",
			"Referrer-Policy":        "strict-origin-when-cross-origin",
			"Cache-Control":          "no-store",
		} {
			if got := r.Header.Get(h); got != want {
				t.Errorf("%s: %s = %q, want %q", path, h, got, want)
			}
		}
		if r.Header.Get("X-Request-Id") == "" {
			t.Errorf("%s: no request id", path)
		}
	}
}

func TestGuardedPagesRedirectToLogin(t *testing.T) {
	a := newApp(t)
	for _, path := range []string{"/", "/orders", "/profile/edit", "/orders/aqua/1"} {
		r := a.get(path)
		if r.StatusCode != http.StatusSeeOther || r.Header.Get("Location") != "/login" {
			t.Errorf("%s: %d → %q, want 303 → /login", path, r.StatusCode, r.Header.Get("Location"))
		}
	}
}

func TestUnknownPathIsRussian404(t *testing.T) {
	a := newApp(t)
	r := a.get("/no-such-page")
	if r.StatusCode != http.StatusNotFound {
		t.Fatalf("status %d", r.StatusCode)
	}
	if got := r.text("h1"); got != "Страница не найдена" {
		t.Errorf("h1 %q", got)
	}
	if !strings.Contains(r.Header.Get("Content-Type"), "text/html") {
		t.Errorf("content type %q", r.Header.Get("Content-Type"))
	}
}

func TestCrossOriginPostIsRefused(t *testing.T) {
	a := newApp(t)
	r := a.postWith(a.client, "/login", url.Values{"phone": {demoPhone}}, http.Header{
		"Origin": {"https://evil.example"}, "Sec-Fetch-Site": {"cross-site"},
	})
	if r.StatusCode != http.StatusForbidden {
		t.Fatalf("status %d, want 403", r.StatusCode)
	}
	if !strings.Contains(r.body, "Запрос отклонён") {
		t.Error("no Russian explanation")
	}
	if _, ok := sandboxtest.LastCode(a.sb, demoPhone); ok {
		t.Error("a cross-origin request made the provider send a code")
	}
}

func TestFirstFlightFits14KB(t *testing.T) {
	a := newApp(t)
	for _, path := range []string{"/login", "/signup"} {
		total, html := a.firstFlight(path)
		if total > 14*1024 {
			t.Errorf("%s: first flight %d bytes, budget 14 KB", path, total)
		}
		if !strings.Contains(html, "<style nonce=") || !strings.Contains(html, ":root{") || strings.Contains(html, `rel="stylesheet"`) {
			t.Errorf("%s: the CSS needed to render must be inline, not a blocking stylesheet", path)
		}
	}
}

func TestRobotsAndMetrics(t *testing.T) {
	a := newApp(t)
	r := a.get("/robots.txt")
	if !strings.Contains(r.body, "Allow: /login") || !strings.Contains(r.body, "Disallow: /") {
		t.Errorf("robots.txt:\n%s", r.body)
	}
	a.get("/login")
	m := a.metrics()
	if !strings.Contains(m, `lk_http_requests_total{method="GET",route="/login",status="200"}`) {
		t.Errorf("metrics lack request counts by route:\n%.2000s", m)
	}
	if !strings.Contains(m, "lk_http_request_duration_seconds_bucket") {
		t.Error("metrics lack durations")
	}
}

func TestStaticAssets(t *testing.T) {
	a := newApp(t)
	r := a.get("/static/favicon.svg")
	if r.StatusCode != http.StatusOK || !strings.Contains(r.Header.Get("Cache-Control"), "max-age") {
		t.Errorf("favicon: %d %q", r.StatusCode, r.Header.Get("Cache-Control"))
	}
	if r := a.get("/static/dist/.vite/manifest.json"); r.StatusCode != http.StatusNotFound {
		t.Errorf("the manifest is served: %d", r.StatusCode)
	}
	login := a.get("/login")
	src, ok := login.doc.Find(`script[type=module]`).Attr("src")
	if !ok {
		t.Skip("islands not built (run make generate)")
	}
	js := a.get(src)
	if js.StatusCode != http.StatusOK || js.Header.Get("Cache-Control") != "public, max-age=31536000, immutable" {
		t.Errorf("%s: %d %q", src, js.StatusCode, js.Header.Get("Cache-Control"))
	}
}

// A browser that takes gzip gets a static file compressed once, at gzip's
// best level: the same bytes to every request, also to many at once on a
// cold server, that unpack to the file; one that does not, or asks for a
// part, gets the file as it is.
func TestStaticFilesGzippedOnce(t *testing.T) {
	a := newApp(t)
	src, ok := a.get("/login").doc.Find(`script[type=module]`).Attr("src")
	if !ok {
		t.Skip("islands not built (run make generate)")
	}
	plain := a.get(src)
	if plain.StatusCode != http.StatusOK || plain.Header.Get("Content-Encoding") != "" || len(plain.body) < 1024 {
		t.Fatalf("%s without gzip: %d %q, %d bytes", src, plain.StatusCode, plain.Header.Get("Content-Encoding"), len(plain.body))
	}

	const n = 16
	bodies := make([][]byte, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			res, raw := a.gzipGet(src)
			if res.StatusCode != http.StatusOK || res.Header.Get("Content-Encoding") != "gzip" ||
				res.Header.Get("Content-Length") != strconv.Itoa(len(raw)) || res.Header.Get("Vary") != "Accept-Encoding" ||
				res.Header.Get("Cache-Control") != "public, max-age=31536000, immutable" ||
				!strings.HasPrefix(res.Header.Get("Content-Type"), "text/javascript") {
				t.Errorf("%s with gzip: %d %v", src, res.StatusCode, res.Header)
			}
			bodies[i] = raw
		})
	}
	wg.Wait()
	for i := 1; i < n; i++ {
		if !bytes.Equal(bodies[i], bodies[0]) {
			t.Fatalf("answer %d differs from the first", i)
		}
	}
	if got := gunzip(t, bodies[0]); got != plain.body {
		t.Fatalf("the gzip answer unpacks to %d bytes, not the file's %d", len(got), len(plain.body))
	}
	// No larger than the level pages are compressed with.
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, 5)
	zw.Write([]byte(plain.body))
	zw.Close()
	if len(bodies[0]) > buf.Len() {
		t.Errorf("%d bytes compressed once, %d at level 5", len(bodies[0]), buf.Len())
	}

	if r := a.send(http.MethodGet, src, http.Header{"Accept-Encoding": {"gzip;q=0, identity"}}); r.Header.Get("Content-Encoding") != "" || r.body != plain.body {
		t.Errorf("gzip refused: %q, %d bytes", r.Header.Get("Content-Encoding"), len(r.body))
	}
	r := a.send(http.MethodGet, src, http.Header{"Accept-Encoding": {"gzip"}, "Range": {"bytes=0-9"}})
	if r.StatusCode != http.StatusPartialContent || r.Header.Get("Content-Encoding") != "" || r.body != plain.body[:10] {
		t.Errorf("a part: %d %q %q", r.StatusCode, r.Header.Get("Content-Encoding"), r.body)
	}
	// An image is not compressed again.
	if res, _ := a.gzipGet("/static/img/favicon-32.png"); res.StatusCode != http.StatusOK || res.Header.Get("Content-Encoding") != "" {
		t.Errorf("favicon: %d %q", res.StatusCode, res.Header.Get("Content-Encoding"))
	}
}

func TestBodyLimitAndHSTS(t *testing.T) {
	a := newApp(t)
	big := url.Values{"phone": {strings.Repeat("9", 100<<10)}}
	r := a.post("/login", big)
	if r.StatusCode != http.StatusRequestEntityTooLarge || !strings.Contains(r.text("main"), "слишком много текста") {
		t.Errorf("100 KB form: %d %q", r.StatusCode, r.text("main"))
	}
	// The test server speaks TLS, as production does behind HTTPS.
	if h := a.get("/login").Header.Get("Strict-Transport-Security"); !strings.HasPrefix(h, "max-age=") {
		t.Errorf("no HSTS over TLS: %q", h)
	}
}
