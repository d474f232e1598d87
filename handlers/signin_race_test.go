package handlers_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"lk/gateway"
	"lk/gateway/sandbox"
	"lk/handlers"
)

// statuses counts answers by status.
type statuses struct {
	mu sync.Mutex
	m  map[int]int
}

func (s *statuses) add(code int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.m == nil {
		s.m = map[int]int{}
	}
	s.m[code]++
}

func TestParallelWrongGuessesReachTheProviderAtMost3Times(t *testing.T) {
	a := newApp(t)
	a.post("/login", url.Values{"phone": {demoPhone}})
	right := a.code(demoPhone)
	a.sb.Reset()
	guesses := wrongCodes(right, 100)
	var got statuses
	parallel(100, func(i int) { // one pending cookie, 100 different wrong codes
		got.add(a.post("/login/code", url.Values{"code": {guesses[i]}}).StatusCode)
	})
	if n := a.sb.Calls("auth/loginConfirm"); n > 3 {
		t.Errorf("auth/loginConfirm called %d times by 100 parallel guesses, want at most 3", n)
	}
	if got.m[http.StatusSeeOther] != 0 || got.m[http.StatusTooManyRequests] < 97 {
		t.Errorf("answers %v", got.m)
	}
	// The same wrong code 100 times at once is one entry.
	a.clock.Add(61 * time.Second)
	a.post("/login/resend", nil)
	a.sb.Reset()
	parallel(100, func(int) { a.post("/login/code", url.Values{"code": {wrongCode(a.code(demoPhone))}}) })
	if n := a.sb.Calls("auth/loginConfirm"); n != 1 {
		t.Errorf("one wrong code submitted 100 times reached the provider %d times, want 1", n)
	}
}

func TestParallelGuessesAPhoneADay(t *testing.T) {
	a := newApp(t)
	a.sb.Reset()
	total := 0
	for round := range 6 { // a new code every round, from new browsers
		b := a.newClient()
		if r := a.postWith(b, "/login", url.Values{"phone": {demoPhone}}, nil); r.StatusCode != http.StatusSeeOther {
			a.clock.Add(2 * time.Hour) // the codes' window; wrong entries stay for a day
			a.postWith(b, "/login", url.Values{"phone": {demoPhone}}, nil)
		}
		guesses := wrongCodes(a.code(demoPhone), 30)
		parallel(30, func(i int) { a.postWith(b, "/login/code", url.Values{"code": {guesses[i]}}, nil) })
		total = a.sb.Calls("auth/loginConfirm")
		t.Logf("round %d: %d calls", round, total)
		a.clock.Add(61 * time.Second)
	}
	if total > 10 {
		t.Errorf("auth/loginConfirm called %d times for one phone in a day, want at most 10", total)
	}
	if total != 7 {
		t.Errorf("strangers reached the provider %d times, want their 7 of the day", total)
	}
}

func TestRightCodeSubmitted30TimesSignsInOnce(t *testing.T) {
	a := newApp(t)
	a.post("/login", url.Values{"phone": {demoPhone}})
	code := a.code(demoPhone)
	a.sb.Reset()
	var got statuses
	parallel(30, func(int) {
		r := a.post("/login/code", url.Values{"code": {code}})
		if r.StatusCode == http.StatusSeeOther && r.Header.Get("Location") != "/" {
			t.Errorf("redirect to %q", r.Header.Get("Location"))
		}
		got.add(r.StatusCode)
	})
	if got.m[http.StatusSeeOther] != 30 {
		t.Errorf("answers %v, want 30 redirects home", got.m)
	}
	if n := a.sb.Calls("auth/loginConfirm"); n != 1 {
		t.Errorf("auth/loginConfirm called %d times, want 1", n)
	}
	if r := a.get("/"); r.StatusCode != http.StatusOK {
		t.Fatalf("not signed in: %d", r.StatusCode)
	}
	// Nothing counted as wrong, nothing locked: a second browser signs in
	// at once with a new code.
	a.clock.Add(61 * time.Second)
	b := a.newClient()
	a.signIn(b, demoPhone)
	// And a resubmission after the first answer arrived goes home too.
	if r := a.post("/login/code", url.Values{"code": {code}}); r.StatusCode != http.StatusSeeOther || r.Header.Get("Location") != "/" {
		t.Errorf("a late resubmission: %d %q", r.StatusCode, r.Header.Get("Location"))
	}
}

// A stranger who spends a phone's wrong entries does not lock the owner out
// of a browser the owner signed in from before.
func TestStrangerCannotLockTheOwnerOut(t *testing.T) {
	a := newApp(t)
	a.signIn(a.client, demoPhone) // the owner's browser, now known
	a.post("/logout", nil)
	stranger := a.newClient()
	for range 4 {
		if r := a.postWith(stranger, "/login", url.Values{"phone": {demoPhone}}, nil); r.StatusCode != http.StatusSeeOther {
			t.Fatalf("stranger's code request: %d", r.StatusCode)
		}
		for _, c := range wrongCodes(a.code(demoPhone), 3) {
			a.postWith(stranger, "/login/code", url.Values{"code": {c}}, nil)
		}
		a.clock.Add(61 * time.Second)
	}
	r := a.postWith(stranger, "/login/code", url.Values{"code": {"1234"}}, nil)
	if r.StatusCode != http.StatusTooManyRequests || !strings.Contains(r.text("#error-summary"), "Слишком много неверных попыток") {
		t.Fatalf("the stranger's 8th entry: %d %q", r.StatusCode, r.text("#error-summary"))
	}
	// The owner, from their own browser: one typo, then the right code.
	a.post("/login", url.Values{"phone": {demoPhone}})
	a.post("/login/code", url.Values{"code": {wrongCode(a.code(demoPhone))}})
	if r := a.post("/login/code", url.Values{"code": {a.code(demoPhone)}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("the owner locked out: %d\n%s", r.StatusCode, r.text("main"))
	}
}

func TestCodeConfirmFailureIsNotAWrongEntry(t *testing.T) {
	for _, f := range []sandbox.Fault{{Status: 500}, {Drop: true}, {Status: 502, Malformed: true}} {
		a := newApp(t)
		a.post("/login", url.Values{"phone": {demoPhone}})
		code := a.code(demoPhone)
		f.Times = 4 // one less than opens the breaker
		a.sb.SetFault("auth/loginConfirm", f)
		for range 4 { // more than the code's 3 wrong entries
			r := a.post("/login/code", url.Values{"code": {code}})
			if r.StatusCode != http.StatusServiceUnavailable || strings.Contains(r.body, "Неверный код") ||
				!strings.Contains(r.text("#error-summary"), "Не удалось выполнить запрос. Попробуйте позже.") {
				t.Fatalf("%+v: %d %q", f, r.StatusCode, r.text("#error-summary"))
			}
		}
		if r := a.post("/login/code", url.Values{"code": {code}}); r.StatusCode != http.StatusSeeOther {
			t.Errorf("%+v: the right code once the provider is back: %d\n%s", f, r.StatusCode, r.text("main"))
		}
	}
}

func TestFailedCodeRequestStartsNoWait(t *testing.T) {
	a := newApp(t)
	a.sb.SetFault("auth/login2f", sandbox.Fault{Status: 500, Times: 1})
	if r := a.post("/login", url.Values{"phone": {demoPhone}}); r.StatusCode != http.StatusServiceUnavailable ||
		!strings.Contains(r.text("#error-summary"), "Не удалось выполнить запрос. Попробуйте позже.") {
		t.Fatalf("a failed request: %d %q", r.StatusCode, r.text("#error-summary"))
	}
	if r := a.post("/login", url.Values{"phone": {demoPhone}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("asked again at once: %d %q", r.StatusCode, r.text("#error-summary"))
	}
}

// The right code, then auth/getClientInfo failing: the code is used up, so
// the token is kept and "Войти" again finishes the sign-in without a code.
func TestProfileFailingAfterTheRightCode(t *testing.T) {
	a := newApp(t)
	a.post("/login", url.Values{"phone": {demoPhone}})
	a.sb.SetFault("auth/getClientInfo", sandbox.Fault{Status: 500, Times: 1})
	r := a.post("/login/code", url.Values{"code": {a.code(demoPhone)}})
	if r.StatusCode != http.StatusServiceUnavailable || !strings.Contains(r.text("#error-summary"), "Код принят") {
		t.Fatalf("%d %q", r.StatusCode, r.text("#error-summary"))
	}
	if r.doc.Find(`input[name=code]`).Length() != 0 || r.text(`form[action="/login/code"] button`) != "Войти" {
		t.Error("the page still asks for the used code")
	}
	r = a.post("/login/code", nil)
	if r.StatusCode != http.StatusSeeOther || r.Header.Get("Location") != "/" {
		t.Fatalf("retry: %d\n%s", r.StatusCode, r.text("main"))
	}
	if n := a.sb.Calls("auth/loginConfirm"); n != 1 {
		t.Errorf("auth/loginConfirm called %d times, want 1", n)
	}
	if got := a.get("/").text("h1"); got != "Здравствуйте, Иван" {
		t.Errorf("greeting %q", got)
	}
}

func TestOutageKeepsTheSession(t *testing.T) {
	a := signedIn(t)
	a.sb.SetFault("auth/getClientInfo", sandbox.Fault{Status: http.StatusInternalServerError, Times: 3})
	for _, p := range []string{"/", "/profile/edit", "/"} {
		r := a.get(p)
		if r.StatusCode == http.StatusUnauthorized || r.StatusCode == http.StatusSeeOther {
			t.Fatalf("%s during an outage: %d, signed out", p, r.StatusCode)
		}
	}
	r := a.get("/")
	if r.StatusCode != http.StatusOK || r.text("h1") != "Здравствуйте, Иван" || r.text(".notice-err") != "" {
		t.Errorf("once the provider is back: %d %q %q", r.StatusCode, r.text("h1"), r.text(".notice-err"))
	}
}

// refusingProfile answers auth/getClientInfo with hasErrors once switched
// on, as the real provider may for a client it has blocked.
type refusingProfile struct {
	handlers.Provider
	on *atomic.Bool
}

func (p refusingProfile) ClientInfo(ctx context.Context, token string) (gateway.PersonalInfo, error) {
	if p.on.Load() {
		return gateway.PersonalInfo{}, &gateway.ProviderError{Op: "get client info", Message: "Сессия истекла", Status: 200}
	}
	return p.Provider.ClientInfo(ctx, token)
}

// refusedHome signs the demo customer in, then has the provider refuse
// their profile, and opens the home page; on switches the refusal.
func refusedHome(t *testing.T) (a *app, r *resp, on *atomic.Bool) {
	t.Helper()
	on = &atomic.Bool{}
	a = newAppWith(t, func(p handlers.Provider) handlers.Provider { return refusingProfile{p, on} })
	a.signIn(a.client, demoPhone)
	on.Store(true)
	return a, a.get("/"), on
}

func TestHomeProfileRefusalSignsOut(t *testing.T) {
	a, r, on := refusedHome(t)
	if r.StatusCode != http.StatusUnauthorized || !strings.Contains(r.text("#error-summary"), "Сессия истекла") {
		t.Fatalf("status %d %q", r.StatusCode, r.text("#error-summary"))
	}
	on.Store(false)
	if r := a.get("/"); r.StatusCode != http.StatusSeeOther || r.Header.Get("Location") != "/login" {
		t.Errorf("still signed in: %d %q", r.StatusCode, r.Header.Get("Location"))
	}
}

// One provider path failing leaves the others working (the breaker is per
// path), with the client's default breaker.
func TestOneFailingPathLeavesTheOthers(t *testing.T) {
	a := newAppWithClient(t, gateway.WithRetries(0), gateway.WithBreaker(gateway.DefaultBreakerFailures, time.Hour))
	a.signIn(a.client, demoPhone)
	a.sb.SetFault("hotel/getHotelOrders", sandbox.Fault{Drop: true})
	for range 5 {
		a.get("/orders")
	}
	a.sb.Reset()
	r := a.get("/orders")
	if !strings.Contains(r.text(".notice-err"), "отеле") {
		t.Errorf("hotel's breaker not open: %q", r.text(".notice-err"))
	}
	if n := a.sb.Calls("hotel/getHotelOrders"); n != 0 {
		t.Errorf("hotel called %d times through an open breaker", n)
	}
	if r := a.get("/profile/edit"); r.StatusCode != http.StatusOK {
		t.Errorf("/profile/edit: %d", r.StatusCode)
	}
	if r.doc.Find(`[data-kind="aqua"]`).Length() == 0 {
		t.Error("/orders lost the kinds that work")
	}
	b := a.newClient()
	if r := a.postWith(b, "/login", url.Values{"phone": {otherPhone}}, nil); r.StatusCode != http.StatusSeeOther {
		t.Errorf("POST /login: %d", r.StatusCode)
	}
}
