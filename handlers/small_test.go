package handlers_test

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

func TestHeadWhereverGet(t *testing.T) {
	a := newApp(t)
	for path, want := range map[string]int{"/healthz": 200, "/login": 200, "/signup": 200, "/robots.txt": 200, "/": 303, "/nope": 404} {
		r := a.send(http.MethodHead, path, nil)
		if r.StatusCode != want || r.body != "" {
			t.Errorf("HEAD %s: %d with %d bytes, want %d and no body", path, r.StatusCode, len(r.body), want)
		}
	}
}

// chunked is a body without Content-Length.
type chunked struct{ io.Reader }

func TestOverLongFormWithoutLength(t *testing.T) {
	a := newApp(t)
	for _, path := range []string{"/login", "/signup", "/login/code"} {
		body := "phone=" + strings.Repeat("9", 100<<10)
		req, _ := http.NewRequest(http.MethodPost, a.srv.URL+path, chunked{strings.NewReader(body)})
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		r := a.do(a.client, req)
		if r.StatusCode != http.StatusRequestEntityTooLarge || req.ContentLength != 0 {
			t.Errorf("%s: %d (Content-Length %d), want 413", path, r.StatusCode, req.ContentLength)
		}
		if text := r.text("main"); strings.Contains(text, "25 МБ") || !strings.Contains(text, "В форме слишком много текста") {
			t.Errorf("%s: the 413 page says %q", path, text)
		}
	}
}

func TestNamesWithHiddenCharactersAreRefused(t *testing.T) {
	a := newApp(t)
	for _, name := range []string{"Мария\x00", "Ма\u202eрия", "Мария\xff", "Ма\u200bрия", "Мария\tИванова"} {
		r := a.post("/signup", url.Values{"phone": {"+7 (901) 555-44-33"}, "firstName": {name}, "lastName": {"Соколова"}})
		if r.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(r.text("#firstName-error"), "невидимые и служебные символы") {
			t.Errorf("%q: %d %q", name, r.StatusCode, r.text("#firstName-error"))
		}
		if v := r.doc.Find(`input[name=firstName]`).AttrOr("value", ""); strings.ContainsAny(v, "\x00\u202e\u200b\t\ufffd") {
			t.Errorf("%q shown back as %q", name, v)
		}
	}
	if n := a.sb.AllCalls()["reg/registration"]; n != 0 {
		t.Errorf("the provider got %d registrations with such names", n)
	}
	a.signIn(a.client, demoPhone)
	r := a.post("/profile/edit", url.Values{"lastName": {"Иванов\u202e"}, "firstName": {"Иван"}, "gender": {"MALE"}, "birthday": {"01.01.1990"}})
	if r.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(r.text("#lastName-error"), "служебные символы") {
		t.Errorf("profile: %d %q", r.StatusCode, r.text("#lastName-error"))
	}
	if n := a.sb.AllCalls()["auth/clientEditInfo"]; n != 0 {
		t.Errorf("the provider got %d profile edits with such names", n)
	}
}

// A last name with spaces comes back into the right fields.
func TestProfileNamesWithSpaces(t *testing.T) {
	a := newApp(t)
	a.signIn(a.client, demoPhone)
	for _, tc := range []struct{ last, first, middle string }{
		{"Ван дер Берг", "Ян", ""},
		{"Салтыков-Щедрин", "Михаил", "Евграфович"},
		{"Мамедов", "Рашид", "Ахмед оглы"},
		{"Де ла Круз", "Анна Мария", "Петровна"},
	} {
		r := a.post("/profile/edit", url.Values{"lastName": {tc.last}, "firstName": {tc.first}, "middleName": {tc.middle},
			"gender": {"MALE"}, "birthday": {"01.01.1990"}})
		if r.StatusCode != http.StatusSeeOther {
			t.Fatalf("%+v: save %d\n%s", tc, r.StatusCode, r.text("main"))
		}
		f := a.get("/profile/edit")
		for name, want := range map[string]string{"lastName": tc.last, "firstName": tc.first, "middleName": tc.middle} {
			if got := f.doc.Find(`input[name=`+name+`]`).AttrOr("value", ""); got != want {
				t.Errorf("%+v: %s %q, want %q", tc, name, got, want)
			}
		}
	}
}
