package handlers_test

import (
	"compress/gzip"
	"context"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"lk/gateway"
	"lk/gateway/sandbox"
	"lk/handlers"
	"lk/handlers/web"
)

// oneAtATime lets one page be worked on at once, and a page beyond it wait
// a moment for its turn: the instance's cores held busy, as far as its
// pages can tell.
func oneAtATime(o *handlers.Options) {
	o.Admission = web.NewAdmission(web.AdmissionConfig{Min: 1, Initial: 1, Max: 1, Fixed: true, MaxWait: 50 * time.Millisecond})
}

// With every place taken (one page held on the provider), a burst of order
// lists gets the Russian 503 with Retry-After at once, never reaching the
// provider; the sign-in page, the health check and static files answer,
// and a form sent is done.
func TestOverloadRefusesPagesNotSignInHealthOrForms(t *testing.T) {
	gate := make(chan struct{})
	a := newAppOptions(t, func(p handlers.Provider) handlers.Provider { return heldAqua{p, gate} }, oneAtATime)
	a.signIn(a.client, demoPhone)
	held := make(chan *resp, 1)
	go func() { held <- a.get("/orders/aqua/" + sandbox.DemoAquaPaid) }()
	for !strings.Contains(a.metrics(), "lk_admission_in_flight 1") {
		time.Sleep(5 * time.Millisecond)
	}
	lists := a.sb.AllCalls()["aqua/getAquaOrders"]

	answers := atOnce(20, func(int) *resp { return a.get("/orders") })
	for i, r := range answers {
		if r.StatusCode != http.StatusServiceUnavailable || r.Header.Get("Retry-After") != "60" ||
			!strings.Contains(r.text("main"), "Сейчас очень много обращений. Попробуйте через минуту.") {
			t.Errorf("page %d beyond the limit: %d, Retry-After %q, %q", i, r.StatusCode, r.Header.Get("Retry-After"), r.text("main"))
		}
	}
	// The refusal is prepared once: one gzip stream, its length known, the
	// answer's own nonce in it.
	res, raw := a.gzipGet("/orders")
	body := gunzip(t, raw)
	nonce := between(res.Header.Get("Content-Security-Policy"), "'nonce-", "'")
	if res.StatusCode != http.StatusServiceUnavailable || res.Header.Get("Content-Length") != strconv.Itoa(len(raw)) ||
		!strings.Contains(body, "Сейчас очень много обращений. Попробуйте через минуту.") || nonce == "" ||
		!strings.Contains(body, `nonce="`+nonce+`"`) || strings.Contains(body, "FRAME") {
		t.Errorf("the prepared refusal: %d, length %q of %d, nonce %q:\n%.600s", res.StatusCode,
			res.Header.Get("Content-Length"), len(raw), nonce, body)
	}
	if n := a.sb.AllCalls()["aqua/getAquaOrders"] - lists; n != 0 {
		t.Errorf("%d provider calls for pages refused", n)
	}
	stranger := a.newClient()
	for _, path := range []string{"/login", "/healthz", "/static/img/favicon-32.png"} {
		if r := a.getWith(stranger, path); r.StatusCode != http.StatusOK {
			t.Errorf("%s while the pages are refused: %d", path, r.StatusCode)
		}
	}
	if r := a.post("/profile/edit", profileAnswers()); r.StatusCode != http.StatusSeeOther {
		t.Errorf("a form sent while the pages are refused: %d %s", r.StatusCode, r.text("main"))
	}
	m := a.metrics()
	if !strings.Contains(m, `lk_http_shed_total{route="/orders"} 21`) {
		t.Errorf("the refusals are not counted by route:\n%s", grepLines(m, "lk_http_shed_total"))
	}
	if !strings.Contains(a.logs.String(), `"msg":"shedding pages: more asked than the cores can serve"`) {
		t.Error("the log does not say pages are being refused")
	}

	close(gate)
	if r := <-held; r.StatusCode != http.StatusOK || !strings.Contains(r.text("main"), "Заказ № "+sandbox.DemoAquaPaid) {
		t.Errorf("the page admitted: %d", r.StatusCode)
	}
	if r := a.get("/orders"); r.StatusCode != http.StatusOK {
		t.Errorf("/orders once the place is free: %d", r.StatusCode)
	}
}

// A page fetched ahead of a tap never waits for a place: with one page
// being worked on, it is refused at once, while the customer's own may
// wait its turn.
func TestPagesFetchedAheadGoFirst(t *testing.T) {
	gate := make(chan struct{})
	a := newAppOptions(t, func(p handlers.Provider) handlers.Provider { return heldAqua{p, gate} }, func(o *handlers.Options) {
		o.Admission = web.NewAdmission(web.AdmissionConfig{Min: 1, Initial: 1, Max: 8, Fixed: true, MaxWait: time.Minute})
	})
	a.signIn(a.client, demoPhone)
	held := make(chan *resp, 1)
	go func() { held <- a.get("/orders/aqua/" + sandbox.DemoAquaPaid) }()
	for !strings.Contains(a.metrics(), "lk_admission_in_flight 1") {
		time.Sleep(5 * time.Millisecond)
	}
	if r := a.send(http.MethodGet, "/orders", http.Header{"Sec-Purpose": {"prefetch;prerender"}}); r.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("a page fetched ahead while no place is free: %d", r.StatusCode)
	}
	waiting := make(chan *resp, 1)
	go func() { waiting <- a.get("/orders") }()
	for !strings.Contains(a.metrics(), "lk_admission_queued 1") {
		time.Sleep(5 * time.Millisecond)
	}
	close(gate)
	if r := <-held; r.StatusCode != http.StatusOK {
		t.Errorf("the page held: %d", r.StatusCode)
	}
	if r := <-waiting; r.StatusCode != http.StatusOK {
		t.Errorf("the customer's own page that waited its turn: %d", r.StatusCode)
	}
}

// lateAqua answers the water-park order as the provider does, then keeps
// the page from going on for a while, as a page that waits for a CPU after
// its answer came does.
type lateAqua struct {
	handlers.Provider
	after time.Duration
}

func (p lateAqua) AquaOrder(ctx context.Context, userID, orderID string) (gateway.AquaOrder, error) {
	o, err := p.Provider.AquaOrder(ctx, userID, orderID)
	time.Sleep(p.after)
	return o, err
}

// The frame is for a slow provider, not a busy server: a page late only
// because it waited after the provider answered goes as it always did, its
// length known and nothing of 'Загружаем'.
func TestNoFrameWhenThePageWaitedForACPU(t *testing.T) {
	a := newAppOptions(t, func(p handlers.Provider) handlers.Provider { return lateAqua{p, 800 * time.Millisecond} }, loadingSoon)
	a.signIn(a.client, demoPhone)
	res, raw := a.gzipGet("/orders/aqua/" + sandbox.DemoAquaPaid)
	body := gunzip(t, raw)
	if res.StatusCode != http.StatusOK || strings.Contains(body, `id="lk-loading"`) || res.Header.Get("Content-Length") == "" ||
		res.Header.Get("LK-Framed") != "" || !strings.Contains(body, "AQ-"+sandbox.DemoAquaPaid+"-01") {
		t.Errorf("a page late for a CPU: %d, length %q, framed %q, notice %v", res.StatusCode, res.Header.Get("Content-Length"),
			res.Header.Get("LK-Framed"), strings.Contains(body, `id="lk-loading"`))
	}
}

// A framed answer is one gzip stream whatever its parts: the frame from
// parts prepared once, the holes (nonce, name) as they are, the page after.
// It says the page's own status for the offline worker.
func TestFramedAnswerIsOneGzipStream(t *testing.T) {
	gate := make(chan struct{})
	a := newAppOptions(t, func(p handlers.Provider) handlers.Provider { return heldAqua{p, gate} }, loadingSoon)
	a.signIn(a.client, demoPhone)
	time.AfterFunc(time.Second, func() { close(gate) })
	res, raw := a.gzipGet("/orders/aqua/" + sandbox.DemoAquaPaid)
	zr, err := gzip.NewReader(strings.NewReader(string(raw)))
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(zr) // checks the length and CRC of everything
	if err != nil {
		t.Fatalf("the framed answer does not decompress whole: %v", err)
	}
	page := string(b)
	if res.Header.Get("Content-Encoding") != "gzip" || res.Header.Get("LK-Framed") != "1" {
		t.Errorf("encoding %q, framed %q", res.Header.Get("Content-Encoding"), res.Header.Get("LK-Framed"))
	}
	nonce := between(res.Header.Get("Content-Security-Policy"), "'nonce-", "'")
	if nonce == "" || strings.Count(page, `nonce="`+nonce+`"`) < 2 || strings.Contains(page, "FRAME") {
		t.Errorf("the frame's holes are not filled with the answer's nonce %q:\n%s", nonce, page)
	}
	if !strings.Contains(page, `<span class="who">Иван</span>`) {
		t.Errorf("the frame does not name the customer:\n%.2000s", page)
	}
	if !strings.Contains(page, `<meta name="lk-status" content="200">`) || !strings.Contains(page, "AQ-"+sandbox.DemoAquaPaid+"-01") {
		t.Errorf("the page after the frame:\n%s", page)
	}
}

func between(s, from, to string) string {
	_, rest, ok := strings.Cut(s, from)
	if !ok {
		return ""
	}
	in, _, _ := strings.Cut(rest, to)
	return in
}

// A page that fails after its frame went is the failure in the log, the
// metrics and the page's own mark, though its status line said 200.
func TestFailureAfterTheFrameIsRecordedAsTheFailure(t *testing.T) {
	a := loadingApp(t)
	page := "/orders/aqua/" + sandbox.DemoAquaPaid
	a.sb.SetFault("aqua/getAquaOrders", sandbox.Fault{Delay: 1500 * time.Millisecond, Status: http.StatusInternalServerError})
	s := a.open(page)
	s.until("Загружаем")
	got := s.rest()
	if s.res.StatusCode != http.StatusOK {
		t.Fatalf("status line %d: the frame should have gone first", s.res.StatusCode)
	}
	status := between(got, `<meta name="lk-status" content="`, `"`)
	if status == "" || status[0] != '5' {
		t.Errorf("the page after the frame says status %q, want the failure's 5xx", status)
	}
	m := a.metrics()
	if !strings.Contains(m, `lk_http_requests_total{method="GET",route="/orders/:type/:id",status="`+status+`"} 1`) {
		t.Errorf("the failure is not counted as %s:\n%s", status, grepLines(m, "lk_http_requests_total"))
	}
	var line string
	for l := range strings.Lines(a.logs.String()) {
		if strings.Contains(l, `"msg":"request"`) && strings.Contains(l, `"route":"/orders/:type/:id"`) {
			line = l
		}
	}
	if !strings.Contains(line, `"status":`+status) || !strings.Contains(line, `"sent":200`) {
		t.Errorf("the access log line: %s", line)
	}
}
