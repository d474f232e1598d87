package handlers_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"lk/gateway/sandbox"
	"lk/handlers"
)

// loadingSoon is the product's own moment before a page shows it is loading.
func loadingSoon(o *handlers.Options) { o.LoadingAfter = 0 }

// loadingApp is the app signed in as the demo customer, showing a slow page
// loading as the product does.
func loadingApp(t *testing.T) *app {
	a := newAppOptions(t, nil, loadingSoon)
	a.signIn(a.client, demoPhone)
	return a
}

// stream is an answer read as it arrives.
type stream struct {
	t    *testing.T
	res  *http.Response
	got  strings.Builder
	next chan []byte
}

func (a *app) open(path string) *stream {
	a.t.Helper()
	req, _ := http.NewRequest(http.MethodGet, a.srv.URL+path, nil)
	res, err := a.client.Do(req)
	if err != nil {
		a.t.Fatal(err)
	}
	s := &stream{t: a.t.(*testing.T), res: res, next: make(chan []byte)}
	go func() {
		defer close(s.next)
		for {
			b := make([]byte, 4096)
			n, err := res.Body.Read(b)
			if n > 0 {
				s.next <- b[:n]
			}
			if err != nil {
				return
			}
		}
	}()
	a.t.Cleanup(func() { res.Body.Close() })
	return s
}

// until reads until the answer says text; a page that never does fails
// the test after a while rather than hang it.
func (s *stream) until(text string) string {
	s.t.Helper()
	stop := time.After(30 * time.Second)
	for !strings.Contains(s.got.String(), text) {
		select {
		case b, ok := <-s.next:
			if !ok {
				s.t.Fatalf("the answer ended without %q:\n%s", text, s.got.String())
			}
			s.got.Write(b)
		case <-stop:
			s.t.Fatalf("no %q in 30 s; so far:\n%s", text, s.got.String())
		}
	}
	return s.got.String()
}

func (s *stream) rest() string {
	for b := range s.next {
		s.got.Write(b)
	}
	return s.got.String()
}

// A page whose provider is slow sends its frame and 'Загружаем…' while the
// provider has not answered; the order follows in the same page, the notice
// hidden by coming before it.
func TestSlowOrderPageSaysLoadingFirst(t *testing.T) {
	gate := make(chan struct{})
	a := newAppOptions(t, func(p handlers.Provider) handlers.Provider { return heldAqua{p, gate} }, loadingSoon)
	a.signIn(a.client, demoPhone)
	s := a.open("/orders/aqua/" + sandbox.DemoAquaPaid)
	first := s.until("Загружаем")
	if s.res.StatusCode != http.StatusOK {
		t.Errorf("status %d", s.res.StatusCode)
	}
	if strings.Contains(first, "AQ-"+sandbox.DemoAquaPaid) || strings.Contains(first, "<main") {
		t.Fatalf("the order came before the provider answered:\n%s", first)
	}
	close(gate)
	page := s.rest()
	loading, main := strings.Index(page, `id="lk-loading"`), strings.Index(page, `<main`)
	if loading < 0 || main < loading || !strings.Contains(page[main:], "Заказ № "+sandbox.DemoAquaPaid) ||
		!strings.Contains(page[main:], "AQ-"+sandbox.DemoAquaPaid+"-01") || !strings.HasSuffix(strings.TrimSpace(page), "</html>") {
		t.Errorf("the page after the notice is not the order:\n%s", page)
	}
	if strings.Count(page, "<title>") != 1 || !strings.Contains(page, "<title>Заказ № "+sandbox.DemoAquaPaid) {
		t.Errorf("the page's title is not the order's")
	}
	if !strings.Contains(page[loading:main], "#lk-loading{display:none}</style>") {
		t.Error("no style hides the notice once the page has come")
	}
}

// With the provider 4 s late on aqua/getAquaOrders, the first bytes of the
// order page say 'Загружаем' and carry nothing of the order: they were sent
// before the provider answered. A failure then is shown in Russian within
// the page; a fast answer is as it always was.
func TestSlowProviderWithTheSandboxDelay(t *testing.T) {
	a := loadingApp(t)
	page := "/orders/aqua/" + sandbox.DemoAquaPaid
	a.sb.SetFault("aqua/getAquaOrders", sandbox.Fault{Delay: 4 * time.Second, Times: 1})
	s := a.open(page)
	if first := s.until("Загружаем"); strings.Contains(first, "AQ-"+sandbox.DemoAquaPaid) {
		t.Fatalf("the order came with the notice:\n%s", first)
	}
	if got := s.rest(); !strings.Contains(got, "AQ-"+sandbox.DemoAquaPaid+"-01") {
		t.Errorf("the order did not follow:\n%s", got)
	}

	// Every try fails (the client tries a read three times), late.
	a.sb.SetFault("aqua/getAquaOrders", sandbox.Fault{Delay: 1500 * time.Millisecond, Status: http.StatusInternalServerError})
	s = a.open(page)
	s.until("Загружаем")
	got := s.rest()
	main := got[max(strings.Index(got, "<main"), 0):]
	if !strings.Contains(main, `<p class="notice notice-err" role="alert">`) || strings.Contains(main, "AQ-"+sandbox.DemoAquaPaid) ||
		!strings.HasSuffix(strings.TrimSpace(got), "</html>") {
		t.Errorf("a late failure is not shown in the page:\n%s", main)
	}
	a.sb.Reset()

	a.sb.SetFault("aqua/getAquaOrders", sandbox.Fault{Delay: 4 * time.Second, Times: 1})
	if r := a.send(http.MethodHead, page, nil); r.StatusCode != http.StatusOK || r.body != "" {
		t.Errorf("HEAD: %d %q", r.StatusCode, r.body)
	}
}

// The list waits for five answers: the frame comes first there too, and
// stays within the first flight.
func TestSlowOrdersListSaysLoadingFirst(t *testing.T) {
	a := loadingApp(t)
	a.sb.SetFault("hotel/getHotelOrders", sandbox.Fault{Delay: 4 * time.Second, Times: 1})
	s := a.open("/orders")
	if first := s.until("Загружаем"); strings.Contains(first, "История заказов") {
		t.Fatalf("the list came with the notice")
	}
	if got := s.rest(); !strings.Contains(got, "История заказов") || !strings.Contains(got, "<title>Заказы") {
		t.Errorf("the list did not follow:\n%s", got)
	}
}

// An answer ready in time is sent as it always was: its length known, no
// frame, a stranger's order 404.
func TestFastPageIsAsBefore(t *testing.T) {
	a := signedIn(t)
	page := "/orders/aqua/" + sandbox.DemoAquaPaid
	res, raw := a.gzipGet(page)
	if body := gunzip(t, raw); res.StatusCode != http.StatusOK || strings.Contains(body, `id="lk-loading"`) || res.Header.Get("Content-Length") == "" {
		t.Errorf("fast page: %d, length %q, notice %v", res.StatusCode, res.Header.Get("Content-Length"), strings.Contains(body, `id="lk-loading"`))
	}
	if r := a.get("/orders/aqua/" + sandbox.OtherAqua); r.StatusCode != http.StatusNotFound {
		t.Errorf("another customer's order: %d", r.StatusCode)
	}
}
