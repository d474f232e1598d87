package handlers_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"lk/gateway"
	"lk/gateway/sandbox"
	"lk/gateway/sandbox/sandboxtest"
	"lk/handlers"
)

func TestSignInWithJavaScriptOff(t *testing.T) {
	a := newApp(t)
	r := a.post("/login", url.Values{"phone": {"+7 (900) 000-00-00"}})
	if r.StatusCode != http.StatusSeeOther || r.Header.Get("Location") != "/login/code" {
		t.Fatalf("POST /login: %d → %q", r.StatusCode, r.Header.Get("Location"))
	}
	page := a.get("/login/code")
	if got := page.text("h1"); got != "Готово" {
		t.Errorf("h1 %q", got)
	}
	if !strings.Contains(page.doc.Text(), "+7 (900) ***-**-00") || !strings.Contains(page.doc.Text(), "в течение минуты") {
		t.Errorf("code page does not say where the code went:\n%s", page.text("main"))
	}
	in := page.doc.Find(`input[name=code]`)
	if v, _ := in.Attr("inputmode"); v != "numeric" {
		t.Errorf("inputmode %q", v)
	}
	if v, _ := in.Attr("autocomplete"); v != "one-time-code" {
		t.Errorf("autocomplete %q", v)
	}
	if page.doc.Find(`form[action="/login/resend"] button`).Length() != 1 {
		t.Error("no way to get a new code")
	}
	if !strings.Contains(page.text(".sandbox"), "/sandbox/sms/79000000000") {
		t.Error("sandbox mode does not say where the code is")
	}

	code := a.code(demoPhone)
	r = a.post("/login/code", url.Values{"code": {code[:2] + " " + code[2:]}})
	if r.StatusCode != http.StatusSeeOther || r.Header.Get("Location") != "/" {
		t.Fatalf("POST /login/code: %d → %q\n%s", r.StatusCode, r.Header.Get("Location"), r.body)
	}
	var cookie *http.Cookie
	for _, c := range r.Cookies() {
		if c.Name == "__Host-lk_session" && c.Value != "" {
			cookie = c
		}
	}
	if cookie == nil {
		t.Fatal("no session cookie")
	}
	if !cookie.HttpOnly || !cookie.Secure || cookie.SameSite != http.SameSiteLaxMode || cookie.Path != "/" {
		t.Errorf("cookie attributes: %+v", cookie)
	}
	if d := time.Duration(cookie.MaxAge) * time.Second; d < 7*24*time.Hour-time.Minute || d > 7*24*time.Hour {
		t.Errorf("cookie lasts %v, want 7 days", d)
	}
	home := a.get("/")
	if got := home.text("h1"); got != "Здравствуйте, Иван" {
		t.Errorf("greeting %q", got)
	}
	if home.doc.Find(`form[action*="logout"][method=post]`).Length() == 0 {
		t.Error("no logout form in the shell")
	}
	if strings.Contains(a.logs.String(), code) && strings.Contains(a.logs.String(), `"code"`) || strings.Contains(a.logs.String(), demoPhone) {
		t.Errorf("the log holds a code or a full phone:\n%s", a.logs.String())
	}
}

func TestPhoneSpellings(t *testing.T) {
	for _, in := range []string{"+7 (900) 000-00-00", "8 900 000 00 00", "9000000000", "79000000000"} {
		a := newApp(t)
		if r := a.post("/login", url.Values{"phone": {in}}); r.StatusCode != http.StatusSeeOther {
			t.Errorf("%q: %d", in, r.StatusCode)
		}
		if _, ok := sandboxtest.LastCode(a.sb, demoPhone); !ok {
			t.Errorf("%q: no code sent to 79000000000", in)
		}
	}
}

func TestInvalidPhoneIsRefusedInline(t *testing.T) {
	a := newApp(t)
	for _, in := range []string{"", "+7 (800) 000-00-00", "12345", "+7 (900) 000-00-0x"} {
		r := a.post("/login", url.Values{"phone": {in}})
		if r.StatusCode != http.StatusUnprocessableEntity {
			t.Errorf("%q: %d, want 422", in, r.StatusCode)
			continue
		}
		field := r.doc.Find(`input[name=phone]`)
		if v, _ := field.Attr("aria-invalid"); v != "true" {
			t.Errorf("%q: field not marked invalid", in)
		}
		if v, _ := field.Attr("value"); v != in {
			t.Errorf("%q: value kept as %q", in, v)
		}
		if r.text("#phone-error") == "" || !strings.HasPrefix(r.text("title"), "Ошибка: ") {
			t.Errorf("%q: no inline error or title prefix", in)
		}
	}
}

func TestUnknownPhoneShowsProviderMessage(t *testing.T) {
	a := newApp(t)
	r := a.post("/login", url.Values{"phone": {"+7 (999) 123-45-67"}})
	if r.StatusCode != http.StatusUnprocessableEntity {
		t.Fatalf("status %d", r.StatusCode)
	}
	if r.text("#error-summary h2") != "Ой!" || r.text("#phone-error") == "" {
		t.Errorf("no 'Ой!' with the provider's message:\n%s", r.text("main"))
	}
}

func TestProviderDownOnLogin(t *testing.T) {
	for _, f := range []sandbox.Fault{{Status: 502, Malformed: true}, {Drop: true}} {
		a := newApp(t)
		a.sb.SetFault("auth/login2f", f)
		r := a.post("/login", url.Values{"phone": {demoPhone}})
		if r.StatusCode < 400 || !strings.Contains(r.text("#error-summary"), "Не удалось выполнить запрос. Попробуйте позже.") {
			t.Errorf("%+v: %d\n%s", f, r.StatusCode, r.text("main"))
		}
		if v, _ := r.doc.Find(`input[name=phone]`).Attr("value"); v != demoPhone {
			t.Errorf("%+v: phone not kept", f)
		}
	}
}

func TestWrongCode(t *testing.T) {
	a := newApp(t)
	a.post("/login", url.Values{"phone": {demoPhone}})
	r := a.post("/login/code", url.Values{"code": {wrongCode(a.code(demoPhone))}})
	if r.StatusCode != http.StatusUnprocessableEntity {
		t.Fatalf("status %d", r.StatusCode)
	}
	if v, _ := r.doc.Find(`input[name=code]`).Attr("aria-invalid"); v != "true" {
		t.Error("code field not marked invalid")
	}
	if r.text("#code-error") == "" {
		t.Error("no message at the field")
	}
	if r := a.post("/login/code", url.Values{"code": {"12a4"}}); r.StatusCode != http.StatusUnprocessableEntity || !strings.HasSuffix(r.text("#code-error"), "Введите 4 цифры кода из SMS") {
		t.Errorf("malformed code: %d %q", r.StatusCode, r.text("#code-error"))
	}
	if r := a.get("/"); r.StatusCode != http.StatusSeeOther {
		t.Error("a wrong code signed in")
	}
}

func TestSignOutRevokesTheSession(t *testing.T) {
	a := newApp(t)
	a.signIn(a.client, demoPhone)
	u, _ := url.Parse(a.srv.URL)
	stolen := a.client.Jar.Cookies(u)
	r := a.post("/logout", nil)
	if r.StatusCode != http.StatusSeeOther || r.Header.Get("Location") != "/login" {
		t.Fatalf("logout: %d → %q", r.StatusCode, r.Header.Get("Location"))
	}
	if r := a.get("/"); r.StatusCode != http.StatusSeeOther {
		t.Error("still signed in after logout")
	}
	replay := a.newClient()
	replay.Jar.SetCookies(u, stolen)
	if r := a.getWith(replay, "/"); r.StatusCode != http.StatusSeeOther || r.Header.Get("Location") != "/login" {
		t.Errorf("a replayed cookie still opens the account: %d", r.StatusCode)
	}
	// The clock jumps ten days ahead, the store tidies up meanwhile (another
	// sign-out), and the clock comes back: the sign-out still holds.
	a.clock.Add(10 * 24 * time.Hour)
	other := a.newClient()
	a.signIn(other, otherPhone)
	a.postWith(other, "/logout", nil, nil)
	a.clock.Add(-10 * 24 * time.Hour)
	if r := a.getWith(replay, "/"); r.StatusCode != http.StatusSeeOther || r.Header.Get("Location") != "/login" {
		t.Errorf("after the clock jumped ahead and back, a replayed cookie opens the account: %d", r.StatusCode)
	}
}

func TestSignupMissingFieldKeepsAnswers(t *testing.T) {
	a := newApp(t)
	r := a.post("/signup", url.Values{"phone": {"+7 (901) 555-44-33"}, "firstName": {"Мария"}, "lastName": {""}})
	if r.StatusCode != http.StatusUnprocessableEntity {
		t.Fatalf("status %d", r.StatusCode)
	}
	if r.text("#error-summary h2") != "Ой!" || !strings.Contains(r.text("#error-summary"), "Пожалуйста, заполните все обязательные поля.") {
		t.Errorf("summary: %q", r.text("#error-summary"))
	}
	for name, want := range map[string]string{"phone": "+7 (901) 555-44-33", "firstName": "Мария"} {
		if v, _ := r.doc.Find(`input[name=` + name + `]`).Attr("value"); v != want {
			t.Errorf("%s kept as %q", name, v)
		}
	}
	if v, _ := r.doc.Find(`input[name=lastName]`).Attr("aria-invalid"); v != "true" {
		t.Error("lastName not marked invalid")
	}
}

func TestSignupNewCustomerIsGreeted(t *testing.T) {
	a := newApp(t)
	r := a.post("/signup", url.Values{"phone": {"+7 (901) 555-44-33"}, "firstName": {"Мария"}, "lastName": {"Соколова"}})
	if r.StatusCode != http.StatusSeeOther || r.Header.Get("Location") != "/login/code" {
		t.Fatalf("signup: %d → %q\n%s", r.StatusCode, r.Header.Get("Location"), r.text("main"))
	}
	r = a.post("/login/code", url.Values{"code": {a.code("79015554433")}})
	if r.StatusCode != http.StatusSeeOther {
		t.Fatalf("code: %d", r.StatusCode)
	}
	if got := a.get("/").text("h1"); got != "Здравствуйте, Мария" {
		t.Errorf("greeting %q", got)
	}
	// The same phone again is the provider's refusal, shown as is.
	b := a.newClient()
	a.clock.Add(61 * time.Second)
	r = a.postWith(b, "/signup", url.Values{"phone": {"79015554433"}, "firstName": {"Мария"}, "lastName": {"Соколова"}}, nil)
	if r.StatusCode != http.StatusUnprocessableEntity || r.text("#error-summary li") == "" {
		t.Errorf("existing phone: %d %q", r.StatusCode, r.text("#error-summary"))
	}
}

func TestSignupProviderUnreachable(t *testing.T) {
	a := newApp(t)
	a.sb.SetFault("reg/registration", sandbox.Fault{Drop: true})
	r := a.post("/signup", url.Values{"phone": {"79015554433"}, "firstName": {"Мария"}, "lastName": {"Соколова"}})
	if !strings.Contains(r.text("#error-summary"), "Не удалось подключиться к серверу. Попробуйте позже.") {
		t.Errorf("%d %q", r.StatusCode, r.text("#error-summary"))
	}
}

func TestIslandGetsJSON(t *testing.T) {
	a := newApp(t)
	r := a.postWith(a.client, "/login", url.Values{"phone": {"+7 (900) 000-00-00"}}, asIsland)
	var ans struct {
		OK       bool   `json:"ok"`
		Phone    string `json:"phone"`
		ResendIn int    `json:"resendIn"`
		Message  string `json:"message"`
		Redirect string `json:"redirect"`
	}
	if err := r.json(&ans); err != nil || !ans.OK || ans.Phone != "+7 (900) ***-**-00" || ans.ResendIn != 60 {
		t.Fatalf("request: %d %s", r.StatusCode, r.body)
	}
	r = a.postWith(a.client, "/login/code", url.Values{"code": {wrongCode(a.code(demoPhone))}}, asIsland)
	if r.StatusCode != http.StatusUnprocessableEntity || r.json(&ans) != nil || ans.OK || ans.Message == "" {
		t.Fatalf("wrong code: %d %s", r.StatusCode, r.body)
	}
	r = a.postWith(a.client, "/login/code", url.Values{"code": {a.code(demoPhone)}}, asIsland)
	if r.json(&ans) != nil || !ans.OK || ans.Redirect != "/" {
		t.Fatalf("right code: %d %s", r.StatusCode, r.body)
	}
}

// profileRefused answers auth/getClientInfo with hasErrors, as the real
// provider may for a client it has blocked; the sandbox never does.
type profileRefused struct{ handlers.Provider }

func (profileRefused) ClientInfo(context.Context, string) (gateway.PersonalInfo, error) {
	return gateway.PersonalInfo{}, &gateway.ProviderError{Op: "get client info", Message: "Учётная запись заблокирована. Обратитесь в поддержку."}
}

func TestProfileErrorAtSignInSignsOut(t *testing.T) {
	a := newAppWith(t, func(p handlers.Provider) handlers.Provider { return profileRefused{p} })
	a.post("/login", url.Values{"phone": {demoPhone}})
	r := a.post("/login/code", url.Values{"code": {a.code(demoPhone)}})
	if r.StatusCode != http.StatusUnauthorized || !strings.Contains(r.text("#error-summary"), "Учётная запись заблокирована. Обратитесь в поддержку.") {
		t.Fatalf("%d\n%s", r.StatusCode, r.text("main"))
	}
	if r := a.get("/"); r.StatusCode != http.StatusSeeOther {
		t.Error("signed in although the profile answered hasErrors")
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
	if n := a.sb.AllCalls()["auth/loginConfirm"]; n != 1 {
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
	if n := a.sb.AllCalls()["hotel/getHotelOrders"]; n != 0 {
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

// panicky fails the way a bug would.
type panicky struct{ handlers.Provider }

func (panicky) Login(context.Context, string, bool) error { panic("bug") }

func TestPanicIsARussianErrorPage(t *testing.T) {
	a := newAppWith(t, func(p handlers.Provider) handlers.Provider { return panicky{p} })
	r := a.post("/login", url.Values{"phone": {demoPhone}})
	if r.StatusCode != http.StatusInternalServerError {
		t.Fatalf("status %d", r.StatusCode)
	}
	if r.text("h1") != "Что-то пошло не так" || strings.Contains(r.body, "goroutine") || strings.Contains(r.body, "panic") {
		t.Errorf("page:\n%s", r.text("main"))
	}
}

// JavaScript off, the SMS pasted whole into the code field signs in: the
// field takes it (its maxlength) and the server takes the four digits out.
func TestSignInWithTheSMSPastedWhole(t *testing.T) {
	a := newApp(t)
	a.post("/login", url.Values{"phone": {demoPhone}})
	page := a.get("/login/code")
	if n, _ := page.doc.Find(`input[name=code]`).Attr("maxlength"); n != "64" {
		t.Errorf("code field maxlength %q, want 64", n)
	}
	pasted := "Ваш код: 1234" + strings.Repeat(" ", 70)
	r := a.post("/login/code", url.Values{"code": {pasted}})
	if r.StatusCode != http.StatusUnprocessableEntity || !strings.HasSuffix(r.text("#code-error"), "Введите 4 цифры кода из SMS") {
		t.Errorf("a text too long: %d %q", r.StatusCode, r.text("#code-error"))
	}
	if r := a.post("/login/code", url.Values{"code": {"Код 1234, действует до 12:30"}}); r.StatusCode != http.StatusUnprocessableEntity {
		t.Errorf("eight digits taken: %d", r.StatusCode)
	}
	r = a.post("/login/code", url.Values{"code": {"Ваш код: " + a.code(demoPhone)}})
	if r.StatusCode != http.StatusSeeOther || r.Header.Get("Location") != "/" {
		t.Fatalf("the SMS pasted whole: %d → %q\n%s", r.StatusCode, r.Header.Get("Location"), r.text("main"))
	}
	if r := a.get("/"); r.StatusCode != http.StatusOK || r.text("h1") != "Здравствуйте, Иван" {
		t.Errorf("not signed in: %d %q", r.StatusCode, r.text("h1"))
	}
}
