package handlers_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"lk/gateway"
	"lk/gateway/sandbox"
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
		if _, ok := a.sb.LastCode(demoPhone); !ok {
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

func TestCodeRequestsPerIP(t *testing.T) {
	a := newApp(t)
	for i := 0; i < 30; i++ {
		phone := fmt.Sprintf("7901%07d", i)
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
