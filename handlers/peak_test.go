package handlers_test

import (
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"lk/gateway"
	"lk/gateway/sandbox"
)

// customer is one signed-up customer with a browser of their own.
type customer struct {
	c  *http.Client
	ip http.Header
}

// signUpMany signs n new customers up through the sandbox (each gets its
// own orders) and in, with JavaScript off; four at a time, so that an app
// with few provider calls allowed in flight signs them all up.
func (a *app) signUpMany(n int) []customer {
	a.t.Helper()
	out := make([]customer, n)
	for first := 0; first < n; first += 4 {
		parallel(min(4, n-first), func(i int) { out[first+i] = a.signUp(first + i) })
	}
	if a.t.Failed() {
		a.t.FailNow()
	}
	return out
}

// signUp signs up and in the customer number i of a test.
func (a *app) signUp(i int) customer {
	cu := customer{c: a.newClient(), ip: http.Header{"X-Forwarded-For": {fmt.Sprintf("10.9.%d.%d", i/256, i%256)}}}
	phone := apartPhone(i) // numbers of one block get 20 codes an hour at most
	r := a.postWith(cu.c, "/signup", url.Values{"phone": {"+" + phone}, "firstName": {"Анна"}, "lastName": {"Сидорова"}}, cu.ip)
	if r.StatusCode != http.StatusSeeOther {
		a.t.Errorf("POST /signup: %d", r.StatusCode)
		return cu
	}
	r = a.postWith(cu.c, "/login/code", url.Values{"code": {a.code(phone)}}, cu.ip)
	if r.StatusCode != http.StatusSeeOther {
		a.t.Errorf("POST /login/code: %d", r.StatusCode)
	}
	return cu
}

// aquaMovePage is the move page of the customer's own water-park order
// that may be moved.
func (a *app) aquaMovePage(cu customer) string {
	a.t.Helper()
	r := a.getWith(cu.c, "/orders")
	// The active orders come first: the one in four days, which may move.
	href := r.doc.Find(`a[href^="/orders/aqua/"]`).First().AttrOr("href", "")
	parts := strings.Split(href, "/")
	if len(parts) < 4 {
		a.t.Fatalf("no water-park order on /orders (%d)", r.StatusCode)
	}
	return strings.Join(parts[:4], "/") + "/transfer"
}

// TestSharedSessionsOnePerDay: the water park's sessions of a day are the
// same for every customer: 50 customers opening the move page of their own
// order for the same day, at once, cause one getSessionsAqua call, and 20
// more opening it afterwards none. Each sees the day's sessions.
func TestSharedSessionsOnePerDay(t *testing.T) {
	a := newAppSetup(t, setup{options: behindProxy})
	customers := a.signUpMany(70)
	pages := make([]string, len(customers))
	for i, cu := range customers {
		pages[i] = a.aquaMovePage(cu)
	}
	date := "?date=" + a.isoDay(a.aquaDayLike(customers[0], pages[0]))
	before := a.sb.AllCalls()["aqua/getSessionsAqua"]
	answers := atOnce(50, func(i int) *resp { return a.getWith(customers[i].c, pages[i]+date) })
	for i, r := range answers {
		if r.StatusCode != http.StatusOK || len(r.choices("sessionId")) == 0 {
			t.Fatalf("customer %d: %d, sessions %v", i, r.StatusCode, r.choices("sessionId"))
		}
	}
	if n := a.sb.AllCalls()["aqua/getSessionsAqua"] - before; n != 1 {
		t.Errorf("50 customers at once: %d getSessionsAqua calls, want 1", n)
	}
	atOnce(20, func(i int) *resp { return a.getWith(customers[50+i].c, pages[50+i]+date) })
	if n := a.sb.AllCalls()["aqua/getSessionsAqua"] - before; n != 1 {
		t.Errorf("20 more customers within the minute: %d calls in all, want 1", n)
	}
	// Kept for 30 s by the server's clock, then asked again.
	a.clock.Add(31 * time.Second)
	a.getWith(customers[0].c, pages[0]+date)
	if n := a.sb.AllCalls()["aqua/getSessionsAqua"] - before; n != 2 {
		t.Errorf("after 31 s: %d calls in all, want 2", n)
	}
}

// TestMoveReadsFresh: the move itself checks against a fresh answer, and
// after this instance's successful move the next page reads afresh.
func TestMoveReadsFresh(t *testing.T) {
	a := signedIn(t)
	page := "/orders/aqua/" + sandbox.DemoAquaPaid + "/transfer"
	date, session := a.firstChoice(page, "sessionId", 1, 30)
	if session == "" {
		t.Fatal("no session to move to")
	}
	p := a.get(page + "?date=" + date) // kept from firstChoice: no call
	before := a.sb.AllCalls()["aqua/getSessionsAqua"]
	form := p.formValues(page)
	form.Set("date", date)
	form.Set("sessionId", session)
	if r := a.post(page, form); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("move: %d\n%s", r.StatusCode, r.text("main"))
	}
	if n := a.sb.AllCalls()["aqua/getSessionsAqua"] - before; n != 1 {
		t.Errorf("the move checked against %d fresh reads of the sessions, want 1", n)
	}
	a.get(page + "?date=" + date)
	if n := a.sb.AllCalls()["aqua/getSessionsAqua"] - before; n != 2 {
		t.Errorf("the page after the move: %d reads in all, want 2 (a fresh one after the move)", n)
	}
}

// heldProvider holds the provider's order lists until released (or until
// the caller leaves), and counts the calls in flight and the most at once.
//
// It counts them as the instance puts them on the wire (onWire): from the
// request's start until its answer is read or its connection closed. A
// page refused at the bound gives up its other calls by closing their
// connections; the provider's own server learns of a close only when its
// goroutine next runs, so counting there would still see a given-up call
// for a moment after the instance has freed its place.
type heldProvider struct {
	release   chan struct{}
	mu        sync.Mutex
	now, most int
}

// onWire is the instance's transport to the provider, counting its calls.
func (p *heldProvider) onWire() gateway.Option {
	base := http.DefaultTransport.(*http.Transport).Clone()
	base.MaxIdleConnsPerHost = 64
	return gateway.WithHTTPClient(&http.Client{Transport: countingTransport{p, base}})
}

type countingTransport struct {
	p    *heldProvider
	base http.RoundTripper
}

func (t countingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if !strings.Contains(r.URL.Path, "/v1/") {
		return t.base.RoundTrip(r)
	}
	t.p.enter(1)
	res, err := t.base.RoundTrip(r)
	if err != nil {
		t.p.enter(-1)
		return nil, err
	}
	res.Body = &countedBody{ReadCloser: res.Body, done: func() { t.p.enter(-1) }}
	return res, nil
}

// countedBody counts its call out once, when it is closed.
type countedBody struct {
	io.ReadCloser
	once sync.Once
	done func()
}

func (b *countedBody) Close() error {
	err := b.ReadCloser.Close()
	b.once.Do(b.done)
	return err
}

// inFlight is how many calls the provider holds now and held at most.
func (p *heldProvider) inFlight() (now, most int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.now, p.most
}

// enter counts a call in (1) or out (-1).
func (p *heldProvider) enter(d int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.now += d
	p.most = max(p.most, p.now)
}

func (p *heldProvider) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasPrefix(r.URL.Path, "/v1/") {
			h.ServeHTTP(w, r)
			return
		}
		if strings.Contains(r.URL.Path, "Orders") || strings.Contains(r.URL.Path, "ForCurrentClient") {
			select {
			case <-p.release:
			case <-r.Context().Done():
				return
			}
		}
		h.ServeHTTP(w, r)
	})
}

// TestSlowProviderBounded: with a provider that does not answer and at
// most 5 calls in flight, 40 customers opening /orders at once: the
// provider never has more than 5 calls at a time, and while it still holds
// them every customer but the one whose five calls it holds has the Russian
// 503 with Retry-After (nobody waits on the provider), and the sign-in page
// answers. Once the provider answers, that one customer has the list.
func TestSlowProviderBounded(t *testing.T) {
	held := &heldProvider{release: make(chan struct{})}
	a := newAppSetup(t, setup{options: behindProxy, provider: held.wrap, gateway: []gateway.Option{gateway.WithMaxInFlight(5), held.onWire()}})
	customers := a.signUpMany(40)
	held.mu.Lock()
	held.most = 0
	held.mu.Unlock()
	answers := make(chan *resp, 40)
	for _, cu := range customers {
		go func() { answers <- a.getWith(cu.c, "/orders") }()
	}
	var got []*resp
	for len(got) < 39 { // only a page holding all five places may wait
		got = append(got, <-answers)
	}
	if r := a.getWith(a.newClient(), "/login"); r.StatusCode != http.StatusOK {
		t.Errorf("/login while the provider is busy: %d", r.StatusCode)
	}
	if n, _ := held.inFlight(); n > 5 {
		t.Errorf("%d calls held by the provider", n)
	}
	close(held.release)
	got = append(got, <-answers)
	busy := 0
	for i, r := range got {
		switch {
		case r.StatusCode == http.StatusOK && i == 39:
		case r.StatusCode == http.StatusServiceUnavailable && r.Header.Get("Retry-After") == "60" &&
			strings.Contains(r.text("main"), "Сейчас очень много обращений. Попробуйте через минуту."):
			busy++
		default:
			t.Errorf("answer %d: %d Retry-After %q: %s", i, r.StatusCode, r.Header.Get("Retry-After"), r.text("main"))
		}
	}
	if _, m := held.inFlight(); m > 5 {
		t.Errorf("%d provider calls in flight at once, want at most 5", m)
	}
	if busy < 39 {
		t.Errorf("%d customers told to come back, want at least 39", busy)
	}
	if m := a.metrics(); !strings.Contains(m, "lk_gateway_calls_refused_total ") || strings.Contains(m, "lk_gateway_calls_refused_total 0\n") {
		t.Errorf("the refusals are not counted in /metrics")
	}
	// The provider answering again, a customer has the list.
	if r := a.getWith(customers[0].c, "/orders"); r.StatusCode != http.StatusOK {
		t.Errorf("/orders afterwards: %d", r.StatusCode)
	}
}
