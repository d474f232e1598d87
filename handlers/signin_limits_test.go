package handlers_test

import (
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"lk/gateway/sandbox"
	"lk/handlers"
)

func TestThreeWrongCodesSpendTheCode(t *testing.T) {
	a := newApp(t)
	a.post("/login", url.Values{"phone": {demoPhone}})
	right := a.code(demoPhone)
	for _, wrong := range wrongCodes(right, 3) { // the same wrong code again counts once
		a.post("/login/code", url.Values{"code": {wrong}})
	}
	r := a.post("/login/code", url.Values{"code": {right}})
	if r.StatusCode != http.StatusTooManyRequests {
		t.Fatalf("the right code after 3 wrong: %d, want 429", r.StatusCode)
	}
	if !strings.Contains(r.text("main"), "Запросите новый код") {
		t.Errorf("no Russian explanation:\n%s", r.text("main"))
	}
	// A new code works.
	a.clock.Add(61 * time.Second)
	if r := a.post("/login/resend", nil); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("resend: %d", r.StatusCode)
	}
	if r := a.post("/login/code", url.Values{"code": {a.code(demoPhone)}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("new code: %d\n%s", r.StatusCode, r.text("main"))
	}
}

// The 429 of three wrong entries says when a new code may be asked for:
// Retry-After, a second at least, on the page and in an island's JSON.
func TestThreeWrongEntriesSayWhenToComeBack(t *testing.T) {
	a := newApp(t)
	a.post("/login", url.Values{"phone": {demoPhone}})
	right := a.code(demoPhone)
	for _, wrong := range wrongCodes(right, 3) {
		a.post("/login/code", url.Values{"code": {wrong}})
	}
	r := a.post("/login/code", url.Values{"code": {right}})
	if r.StatusCode != http.StatusTooManyRequests {
		t.Fatalf("the 4th entry: %d", r.StatusCode)
	}
	if n, err := strconv.Atoi(r.Header.Get("Retry-After")); err != nil || n < 1 || n > 60 {
		t.Errorf("Retry-After %q, want the seconds until a new code (1…60)", r.Header.Get("Retry-After"))
	}
	j := a.postWith(a.client, "/login/code", url.Values{"code": {right}}, asIsland)
	if j.StatusCode != http.StatusTooManyRequests || j.Header.Get("Retry-After") == "" {
		t.Errorf("island: %d Retry-After %q", j.StatusCode, j.Header.Get("Retry-After"))
	}
}

func TestSecondCodeWithin60sIsRefused(t *testing.T) {
	a := newApp(t)
	a.post("/login", url.Values{"phone": {demoPhone}})
	a.clock.Add(20 * time.Second)
	r := a.post("/login/resend", nil)
	if r.StatusCode != http.StatusTooManyRequests {
		t.Fatalf("status %d, want 429", r.StatusCode)
	}
	if got := r.Header.Get("Retry-After"); got != "40" {
		t.Errorf("Retry-After %q, want 40", got)
	}
	if !strings.Contains(r.text("main"), "через 40 с") {
		t.Errorf("the page does not say when:\n%s", r.text("main"))
	}
	if r := a.post("/login", url.Values{"phone": {demoPhone}}); r.StatusCode != http.StatusTooManyRequests {
		t.Errorf("a new /login within 60 s: %d", r.StatusCode)
	}
	a.clock.Add(41 * time.Second)
	if r := a.post("/login/resend", nil); r.StatusCode != http.StatusSeeOther {
		t.Errorf("after 60 s: %d", r.StatusCode)
	}
	if page := a.get("/login/code?sent=1"); !strings.Contains(page.text("main"), "Новый код отправлен.") {
		t.Error("no notice that a new code was sent")
	}
}

func TestCodesPerPhoneWindow(t *testing.T) {
	a := newApp(t)
	for i := 0; i < 5; i++ {
		if r := a.post("/login", url.Values{"phone": {demoPhone}}); r.StatusCode != http.StatusSeeOther {
			t.Fatalf("code %d: %d", i+1, r.StatusCode)
		}
		a.clock.Add(61 * time.Second)
	}
	r := a.post("/login", url.Values{"phone": {demoPhone}})
	if r.StatusCode != http.StatusTooManyRequests || r.Header.Get("Retry-After") == "" {
		t.Fatalf("6th code in 2 h: %d", r.StatusCode)
	}
	if m := a.metrics(); !strings.Contains(m, `lk_signin_limit_refusals_total{limit="phone_window"} 1`) {
		t.Error("refusal not counted in metrics")
	}
}

func TestCodeRequestsPerIP(t *testing.T) {
	a := newApp(t)
	for i := 0; i < 30; i++ {
		phone := apartPhone(i)
		if r := a.post("/login", url.Values{"phone": {phone}}); r.StatusCode == http.StatusTooManyRequests {
			t.Fatalf("request %d refused", i+1)
		}
	}
	r := a.post("/login", url.Values{"phone": {demoPhone}})
	if r.StatusCode != http.StatusTooManyRequests || r.Header.Get("Retry-After") == "" {
		t.Fatalf("31st code request from one address in an hour: %d", r.StatusCode)
	}
	if !strings.Contains(r.text("#error-summary"), "Слишком много запросов кода") {
		t.Errorf("message: %q", r.text("#error-summary"))
	}
	// A spoofed X-Forwarded-For does not make a new address.
	r = a.postWith(a.client, "/login", url.Values{"phone": {demoPhone}}, http.Header{"X-Forwarded-For": {"203.0.113.9"}})
	if r.StatusCode != http.StatusTooManyRequests {
		t.Errorf("X-Forwarded-For dodged the limit: %d", r.StatusCode)
	}
}

// The per-IP limit counts an IPv6 /64 as one address: 40 parallel code
// requests from 40 addresses of one /64 (for 40 phones, so no per-phone
// limit is met) pass 30 times; another /48 is another address.
func TestIPv6NetworkIsOneAddress(t *testing.T) {
	_, loopback, _ := net.ParseCIDR("127.0.0.0/8")
	a := newAppSetup(t, setup{options: func(o *handlers.Options) { o.TrustedProxies = []*net.IPNet{loopback} }})
	answers := atOnce(40, func(i int) *resp {
		from := http.Header{"X-Forwarded-For": {fmt.Sprintf("2001:db8:1:2:%x::%x", i, i+1)}}
		return a.postWith(a.newClient(), "/login", url.Values{"phone": {apartPhone(i)}}, from)
	})
	for _, r := range answers {
		if r.StatusCode == http.StatusTooManyRequests && r.Header.Get("Retry-After") == "" {
			t.Error("a 429 without Retry-After")
		}
	}
	if got := byStatus(answers); got[http.StatusTooManyRequests] != 10 {
		t.Errorf("answers %v, want 10 refusals of 40 from one /64", got)
	}
	r := a.postWith(a.newClient(), "/login", url.Values{"phone": {demoPhone}}, http.Header{"X-Forwarded-For": {"2001:db8:2:3::1"}})
	if r.StatusCode != http.StatusSeeOther {
		t.Errorf("another /48: %d %q", r.StatusCode, r.text("#error-summary"))
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

// A sign-up refused because the phone is registered already sent no code:
// the customer who then signs in gets a code at once, not a wait.
func TestRefusedSignupLeavesNoWait(t *testing.T) {
	a := newApp(t)
	r := a.post("/signup", url.Values{"phone": {demoPhone}, "firstName": {"Иван"}, "lastName": {"Иванов"}})
	if r.StatusCode != http.StatusUnprocessableEntity || r.text(".summary li") == "" {
		t.Fatalf("sign-up of a registered phone: %d %q", r.StatusCode, r.text(".summary li"))
	}
	if n := a.sb.AllCalls()["auth/login2f"]; n != 0 {
		t.Fatalf("a code was sent for a refused sign-up (%d)", n)
	}
	if r := a.post("/login", url.Values{"phone": {demoPhone}}); r.StatusCode != http.StatusSeeOther {
		t.Errorf("sign-in right after: %d %q, want a code at once", r.StatusCode, r.text(".summary li"))
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

func TestParallelWrongGuessesReachTheProviderAtMost3Times(t *testing.T) {
	a := newApp(t)
	a.post("/login", url.Values{"phone": {demoPhone}})
	right := a.code(demoPhone)
	a.sb.Reset()
	guesses := wrongCodes(right, 100)
	got := byStatus(atOnce(100, func(i int) *resp { // one pending cookie, 100 different wrong codes
		return a.post("/login/code", url.Values{"code": {guesses[i]}})
	}))
	if n := a.sb.AllCalls()["auth/loginConfirm"]; n > 3 {
		t.Errorf("auth/loginConfirm called %d times by 100 parallel guesses, want at most 3", n)
	}
	if got[http.StatusSeeOther] != 0 || got[http.StatusTooManyRequests] < 97 {
		t.Errorf("answers %v", got)
	}
	// The same wrong code 100 times at once is one entry.
	a.clock.Add(61 * time.Second)
	a.post("/login/resend", nil)
	a.sb.Reset()
	parallel(100, func(int) { a.post("/login/code", url.Values{"code": {wrongCode(a.code(demoPhone))}}) })
	if n := a.sb.AllCalls()["auth/loginConfirm"]; n != 1 {
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
		total = a.sb.AllCalls()["auth/loginConfirm"]
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
	answers := atOnce(30, func(int) *resp { return a.post("/login/code", url.Values{"code": {code}}) })
	for _, r := range answers {
		if r.StatusCode == http.StatusSeeOther && r.Header.Get("Location") != "/" {
			t.Errorf("redirect to %q", r.Header.Get("Location"))
		}
	}
	if got := byStatus(answers); got[http.StatusSeeOther] != 30 {
		t.Errorf("answers %v, want 30 redirects home", got)
	}
	if n := a.sb.AllCalls()["auth/loginConfirm"]; n != 1 {
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

// A stranger's code request between the owner's request and entry: it
// cannot come at once (the owner's wait is the stranger's too), and when
// it comes after the wait and replaces the owner's code, the owner's entry
// of the code he was sent first counts nothing against his browser and is
// told why. Three such rounds (three entries that a known browser's daily
// limit of 3 would have turned into a day's lock) leave the owner's browser
// free to sign in.
func TestStrangersCodeNeverCountsAgainstTheOwner(t *testing.T) {
	t.Run("memory", func(t *testing.T) { strangersCode(t, newApp(t)) })
	t.Run("redis", func(t *testing.T) { strangersCode(t, newAppSetup(t, setup{limiter: startRedis(t).Open()})) })
}

func strangersCode(t *testing.T, a *app) {
	a.signIn(a.client, demoPhone) // the owner's browser, now known
	a.post("/logout", nil)
	stranger := a.newClient()
	for round := range 3 {
		if r := a.post("/login", url.Values{"phone": {demoPhone}}); r.StatusCode != http.StatusSeeOther {
			t.Fatalf("round %d: the owner's code request: %d %q", round, r.StatusCode, r.text("#error-summary"))
		}
		owners := a.code(demoPhone)
		r := a.postWith(stranger, "/login", url.Values{"phone": {demoPhone}}, nil)
		if r.StatusCode != http.StatusTooManyRequests || r.Header.Get("Retry-After") == "" {
			t.Fatalf("round %d: a stranger replaced the owner's code at once: %d", round, r.StatusCode)
		}
		a.clock.Add(61 * time.Second)
		if r := a.postWith(stranger, "/login", url.Values{"phone": {demoPhone}}, nil); r.StatusCode != http.StatusSeeOther {
			t.Fatalf("round %d: the stranger's code request after the wait: %d", round, r.StatusCode)
		}
		r = a.post("/login/code", url.Values{"code": {owners}})
		if r.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(r.text("#error-summary"), "запросили новый код") {
			t.Fatalf("round %d: the owner's entry of the replaced code: %d %q", round, r.StatusCode, r.text("#error-summary"))
		}
		a.clock.Add(61 * time.Second)
	}
	// The owner was sent the stranger's code too: it signs him in.
	if r := a.post("/login/code", url.Values{"code": {a.code(demoPhone)}}); r.StatusCode != http.StatusSeeOther || r.Header.Get("Location") != "/" {
		t.Fatalf("the owner with the latest code: %d %q", r.StatusCode, r.text("main"))
	}
	// And a code of his own, later, too: nothing was counted against him.
	a.post("/logout", nil)
	a.clock.Add(61 * time.Second)
	a.signIn(a.client, demoPhone)
}

// Strangers who spent their day's wrong entries and then replace the
// owner's code: the owner's entry meets the strangers' lock, is told to
// ask for a code of his own, and that code signs him in.
func TestStrangersLockedDayDoesNotLockTheOwner(t *testing.T) {
	a := newApp(t)
	a.signIn(a.client, demoPhone) // the owner's browser, now known
	a.post("/logout", nil)
	stranger := a.newClient()
	for range 3 { // 3 codes × 3 wrong entries: more than the strangers' 7 a day
		a.clock.Add(61 * time.Second)
		if r := a.postWith(stranger, "/login", url.Values{"phone": {demoPhone}}, nil); r.StatusCode != http.StatusSeeOther {
			t.Fatalf("stranger's code request: %d", r.StatusCode)
		}
		for _, c := range wrongCodes(a.code(demoPhone), 3) {
			a.postWith(stranger, "/login/code", url.Values{"code": {c}}, nil)
		}
	}
	a.clock.Add(61 * time.Second)
	a.post("/login", url.Values{"phone": {demoPhone}})
	owners := a.code(demoPhone)
	a.clock.Add(61 * time.Second)
	a.postWith(stranger, "/login", url.Values{"phone": {demoPhone}}, nil)
	r := a.post("/login/code", url.Values{"code": {owners}})
	if r.StatusCode != http.StatusTooManyRequests || r.Header.Get("Retry-After") == "" ||
		!strings.Contains(r.text("#error-summary"), "Запросите код ещё раз") {
		t.Fatalf("the owner's entry after the strangers' lock: %d %q", r.StatusCode, r.text("#error-summary"))
	}
	if r := a.post("/login/resend", nil); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("the owner's new code: %d %q", r.StatusCode, r.text("#error-summary"))
	}
	if r := a.post("/login/code", url.Values{"code": {a.code(demoPhone)}}); r.StatusCode != http.StatusSeeOther || r.Header.Get("Location") != "/" {
		t.Fatalf("the owner with a code of his own: %d %q", r.StatusCode, r.text("main"))
	}
}

// The sign-in limits of a phone are kept in Redis under a tag, so that the
// keys (what SCAN lists and the append-only file holds) name no phone:
// after codes asked, a wrong code and a sign-in, no key or value holds the
// number; nor does a key hold the client's address (IPv4 or IPv6) or the
// number's first digits, which count under tags too.
func TestRedisKeysNameNoPhone(t *testing.T) {
	srv := startRedis(t)
	a := newAppSetup(t, setup{limiter: srv.Open(), revoker: srv.Open(), options: behindProxy})
	a.postWith(a.newClient(), "/login", url.Values{"phone": {otherPhone}}, http.Header{"X-Forwarded-For": {"2001:db8:77::1"}})
	a.postWith(a.client, "/login", url.Values{"phone": {demoPhone}}, http.Header{"X-Forwarded-For": {"203.0.113.77"}})
	a.post("/login/code", url.Values{"code": {wrongCodes(a.code(demoPhone), 1)[0]}})
	a.clock.Add(time.Minute)
	a.signIn(a.client, demoPhone)
	rc := redis.NewClient(&redis.Options{Addr: srv.Addr()})
	defer rc.Close()
	keys, err := rc.Keys(t.Context(), "*").Result()
	if err != nil || len(keys) < 5 {
		t.Fatalf("%d keys: %v", len(keys), err)
	}
	for _, k := range keys {
		dump, _ := rc.Dump(t.Context(), k).Result()
		for _, phone := range []string{demoPhone, otherPhone, demoPhone[1:], otherPhone[1:]} {
			if strings.Contains(k, phone) || strings.Contains(dump, phone) {
				t.Errorf("key %q (or its value) holds a phone", k)
			}
		}
		for _, part := range []string{"203.0.113", "2001:db8", demoPhone[:7]} {
			if strings.Contains(k, part) || strings.Contains(dump, part) && part != demoPhone[:7] {
				t.Errorf("key %q (or its value) holds %q", k, part)
			}
		}
	}
}
