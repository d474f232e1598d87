package main

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"lk/internal/testkit"
)

// slowBody sends n chunks of size bytes, one every gap.
type slowBody struct {
	n, size int
	gap     time.Duration
}

func (b *slowBody) Read(p []byte) (int, error) {
	if b.n == 0 {
		return 0, io.EOF
	}
	time.Sleep(b.gap)
	b.n--
	k := min(len(p), b.size)
	for i := range p[:k] {
		p[i] = 'x'
	}
	if k < b.size { // the rest of this chunk at once
		b.n++
		b.size -= k
	}
	return k, nil
}

type answerOf struct {
	status int
	body   string
	retry  string
	err    error
}

func upload(b *browser, path string, body io.Reader, size int64) answerOf {
	req, _ := http.NewRequest(http.MethodPost, b.base+path, body)
	req.ContentLength = size
	req.Header.Set("Content-Type", "multipart/form-data; boundary=xxxx")
	testkit.AddCookies(req, b.cookies)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return answerOf{err: err}
	}
	defer res.Body.Close()
	text, err := io.ReadAll(res.Body)
	return answerOf{status: res.StatusCode, body: string(text), retry: res.Header.Get("Retry-After"), err: err}
}

// A restart in the middle of a customer's 30-second upload answers it
// instead of cutting it: SIGTERM waits for the upload (beyond
// LK_SHUTDOWN_TIMEOUT, within the upload's own bound), while an upload
// that starts during the drain is refused at once, before its body is
// read, with a Russian 503 and Retry-After.
func TestRestartAnswersTheUploadInFlight(t *testing.T) {
	addrs, out, stop := started(t, map[string]string{
		"LK_ADDR": "127.0.0.1:0", "LK_SANDBOX_ADDR": "127.0.0.1:0", "LK_DATA_DIR": t.TempDir(),
		"LK_SHUTDOWN_DRAIN": "3s", "LK_SHUTDOWN_TIMEOUT": "10s",
	})
	b, sandboxURL := sandboxBrowser(t, addrs, out.String())
	if r := b.post("/login", url.Values{"phone": {"+7 (900) 000-00-00"}}); r != http.StatusSeeOther {
		t.Fatalf("POST /login: %d", r)
	}
	if r := b.post("/login/code", url.Values{"code": {sandboxCode(t, sandboxURL, "79000000000")}}); r != http.StatusSeeOther {
		t.Fatalf("POST /login/code: %d", r)
	}
	const path = "/orders/aqua/99999999/refund" // read whole, then 404: not the customer's
	slow := make(chan answerOf, 1)
	go func() { slow <- upload(b, path, &slowBody{n: 30, size: 20 << 10, gap: time.Second}, 30*20<<10) }()
	time.Sleep(2 * time.Second)
	late := make(chan answerOf, 1)
	go func() {
		time.Sleep(time.Second) // the server drains
		late <- upload(b, path, strings.NewReader(strings.Repeat("x", 1<<10)), 1<<10)
	}()
	start := time.Now()
	stop() // SIGTERM
	waited := time.Since(start)
	if a := <-slow; a.err != nil || a.status != http.StatusNotFound || !strings.Contains(a.body, "Заказ недоступен") {
		t.Errorf("the upload in flight at SIGTERM: %d %v %.200s", a.status, a.err, a.body)
	}
	if a := <-late; a.err != nil || a.status != http.StatusServiceUnavailable || a.retry == "" || !strings.Contains(a.body, "Сервер перезапускается") {
		t.Errorf("an upload during the drain: %d %q %v %.200s", a.status, a.retry, a.err, a.body)
	}
	if waited < 20*time.Second {
		t.Errorf("the shutdown took %v: it cannot have waited for a 30 s upload", waited)
	}
	if !strings.Contains(out.String(), "waiting for refund uploads in flight") {
		t.Error("the log does not say the shutdown waits for uploads")
	}
}
