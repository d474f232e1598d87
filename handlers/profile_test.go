package handlers_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"

	"lk/gateway"
	"lk/gateway/sandbox"
	"lk/handlers"
)

func profileAnswers() url.Values {
	return url.Values{
		"lastName": {"Петров"}, "firstName": {"Пётр"}, "middleName": {"Сергеевич"},
		"gender": {"MALE"}, "birthday": {"02.11.1979"},
	}
}

func TestProfileFormIsFilledIn(t *testing.T) {
	a := signedIn(t)
	r := a.get("/profile/edit")
	if r.StatusCode != http.StatusOK {
		t.Fatalf("status %d", r.StatusCode)
	}
	for name, want := range map[string]string{"lastName": "Иванов", "firstName": "Иван", "middleName": "Иванович", "birthday": "15.03.1985"} {
		if got := r.doc.Find(`input[name="`+name+`"]`).AttrOr("value", ""); got != want {
			t.Errorf("%s = %q, want %q", name, got, want)
		}
		id := r.doc.Find(`input[name="`+name+`"]`).AttrOr("id", "")
		if r.doc.Find(`label[for="`+id+`"]`).Length() != 1 {
			t.Errorf("%s has no label", name)
		}
	}
	if r.doc.Find(`input[name=gender][value=MALE][checked]`).Length() != 1 {
		t.Error("gender MALE not checked")
	}
	for v, label := range map[string]string{"MALE": "Мужской", "FEMALE": "Женский"} {
		if got := strings.TrimSpace(r.doc.Find(`input[name=gender][value=` + v + `]`).Parent().Text()); got != label {
			t.Errorf("%s labelled %q", v, got)
		}
	}
	b := r.doc.Find(`input[name=birthday]`)
	if b.AttrOr("data-enhance", "") != "birthday" || b.AttrOr("inputmode", "") != "numeric" || b.AttrOr("maxlength", "") != "10" {
		t.Error("birthday lacks data-enhance, inputmode or maxlength")
	}
	phone := r.doc.Find(`input#phone`)
	if _, ro := phone.Attr("readonly"); !ro || phone.AttrOr("value", "") != "+7 (900) 000-00-00" || phone.AttrOr("name", "") != "" {
		t.Error("phone must be shown, read-only and not submitted")
	}
	if !strings.Contains(r.body, "/static/dist/") {
		t.Error("the birthday enhancement is not loaded")
	}
}

func TestProfileValidation(t *testing.T) {
	a := signedIn(t)
	for _, tc := range []struct {
		name  string
		field string
		value string
	}{
		{"not a real date", "birthday", "31.02.1990"},
		{"letters", "birthday", "1a.03.1990"},
		{"too long", "birthday", "01.03.19900"},
		{"future", "birthday", "01.01.2999"},
		{"missing birthday", "birthday", ""},
		{"missing first name", "firstName", ""},
		{"missing last name", "lastName", "  "},
		{"missing gender", "gender", ""},
		{"odd gender", "gender", "OTHER"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a.sb.Reset()
			form := profileAnswers()
			form.Set(tc.field, tc.value)
			r := a.post("/profile/edit", form)
			if r.StatusCode != http.StatusUnprocessableEntity {
				t.Fatalf("status %d", r.StatusCode)
			}
			if !strings.HasPrefix(r.text("title"), "Ошибка: ") {
				t.Errorf("title %q", r.text("title"))
			}
			if r.doc.Find(`#error-summary a[href="#`+tc.field+`"]`).Length() != 1 {
				t.Errorf("summary does not link to #%s", tc.field)
			}
			if r.text("#"+tc.field+"-error") == "" {
				t.Errorf("no message at %s", tc.field)
			}
			for name, v := range form {
				if name == "gender" || name == tc.field {
					continue
				}
				if got := r.doc.Find(`input[name="`+name+`"]`).AttrOr("value", ""); got != strings.TrimSpace(v[0]) {
					t.Errorf("%s not kept: %q", name, got)
				}
			}
			if tc.field == "birthday" && tc.value != "" {
				if got := r.doc.Find(`input[name=birthday]`).AttrOr("value", ""); got != tc.value {
					t.Errorf("birthday answer not kept: %q", got)
				}
			}
			if tc.field != "gender" && r.doc.Find(`input[name=gender][value=MALE][checked]`).Length() != 1 {
				t.Error("gender answer not kept")
			}
			if n := a.sb.AllCalls()["auth/clientEditInfo"]; n != 0 {
				t.Errorf("an invalid form reached the provider")
			}
		})
	}
}

func TestProfileEditChangesGreeting(t *testing.T) {
	a := signedIn(t)
	form := profileAnswers()
	form.Set("gender", "FEMALE")
	form.Set("birthday", "02111979") // without the dots the script would add
	form.Set("middleName", "")
	r := a.post("/profile/edit", form)
	if r.StatusCode != http.StatusSeeOther || r.Header.Get("Location") != "/" {
		t.Fatalf("save: %d → %q\n%s", r.StatusCode, r.Header.Get("Location"), r.text("main"))
	}
	r = a.get("/")
	if got := r.text(".notice-ok"); got != "Личные данные сохранены." {
		t.Errorf("notice %q, want 'Личные данные сохранены.'", got)
	}
	if got := a.get("/").text(".notice-ok"); got != "" {
		t.Errorf("the notice again: %q", got)
	}
	if got := r.text("h1"); got != "Здравствуйте, Пётр" {
		t.Errorf("h1 %q", got)
	}
	if got := r.text(".who"); got != "Пётр" {
		t.Errorf("shell name %q", got)
	}
	for key, want := range map[string]string{"ФИО": "Петров Пётр", "Дата рождения": "02.11.1979", "Пол": "Женский"} {
		if got := r.kv("section", key); got != want {
			t.Errorf("%s: %q, want %q", key, got, want)
		}
	}
}

func TestProfileProviderRefusal(t *testing.T) {
	a := signedIn(t)
	a.sb.SetFault("auth/clientEditInfo", sandbox.Fault{Status: http.StatusInternalServerError, Times: 1})
	r := a.post("/profile/edit", profileAnswers())
	if r.StatusCode < 400 {
		t.Fatalf("status %d", r.StatusCode)
	}
	// The provider failing is no fault of the answers: not under
	// 'Проверьте данные'.
	if r.text(".notice-err") != "Сервис временно недоступен (sandbox fault)" || r.doc.Find("#error-summary").Length() != 0 ||
		strings.Contains(r.text("main"), "Проверьте данные") {
		t.Errorf("outage shown as %q, summary %q", r.text(".notice-err"), r.text("#error-summary"))
	}
	if got := r.doc.Find(`input[name=lastName]`).AttrOr("value", ""); got != "Петров" {
		t.Errorf("answers lost: %q", got)
	}
	if got := a.get("/").text("h1"); got != "Здравствуйте, Иван" {
		t.Errorf("greeting changed after a refusal: %q", got)
	}
}

// profileSaysNo is a provider that refuses every profile under HTTP 200
// with a text of its own.
type profileSaysNo struct{ handlers.Provider }

func (profileSaysNo) EditClientInfo(context.Context, string, gateway.ProfileUpdate) error {
	return &gateway.ProviderError{Op: "edit client info", Message: "Неверная дата рождения", Status: http.StatusOK}
}

// The provider's word on the answers is its own, in red above the form,
// not under 'Проверьте данные' as if the customer had typed something wrong.
func TestProfileRefusedAnswers(t *testing.T) {
	a := newAppWith(t, func(p handlers.Provider) handlers.Provider { return profileSaysNo{p} })
	a.signIn(a.client, demoPhone)
	r := a.post("/profile/edit", profileAnswers())
	if r.StatusCode < 400 || r.text(".notice-err") != "Неверная дата рождения" || r.doc.Find("#error-summary").Length() != 0 ||
		strings.Contains(r.text("main"), "Проверьте данные") {
		t.Errorf("refusal: %d, summary %q, notice %q", r.StatusCode, r.text("#error-summary"), r.text(".notice-err"))
	}
}

// A provider failing without a word of its own gets the request failure's
// text, not a page of answers to check.
func TestProfileProviderSilentFailure(t *testing.T) {
	a := signedIn(t)
	a.sb.SetFault("auth/clientEditInfo", sandbox.Fault{Drop: true, Times: 2})
	r := a.post("/profile/edit", profileAnswers())
	if r.StatusCode != http.StatusServiceUnavailable || r.text(".notice-err") != "Не удалось выполнить запрос. Попробуйте позже." ||
		r.doc.Find("#error-summary").Length() != 0 {
		t.Errorf("failure: %d, notice %q, summary %q", r.StatusCode, r.text(".notice-err"), r.text("#error-summary"))
	}
}

// renamedAtResort is the provider after the resort changed the customer's
// name: its profile says the name set last.
type renamedAtResort struct {
	handlers.Provider
	fio *resortName
}

type resortName struct {
	mu  sync.Mutex
	fio *string
}

func (n *resortName) set(fio string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.fio = &fio
}

func (p renamedAtResort) ClientInfo(ctx context.Context, token string) (gateway.PersonalInfo, error) {
	info, err := p.Provider.ClientInfo(ctx, token)
	p.fio.mu.Lock()
	defer p.fio.mu.Unlock()
	if p.fio.fio != nil && err == nil {
		info.FIO = *p.fio.fio
	}
	return info, err
}

// The greeting and the menu take the name from the profile as the resort
// has it now, not the one kept from sign-in; the other pages follow once the
// profile was read, with no provider call of their own.
func TestNameFollowsTheProfile(t *testing.T) {
	fio := &resortName{}
	a := newAppWith(t, func(p handlers.Provider) handlers.Provider { return renamedAtResort{p, fio} })
	a.signIn(a.client, demoPhone)
	if got := a.get("/orders").text(".who"); got != "Иван" {
		t.Fatalf("menu before %q", got)
	}
	for _, tc := range []struct{ fio, greeting, who string }{
		{"Иванова Ольга Петровна", "Здравствуйте, Ольга", "Ольга"},
		{"", "Здравствуйте!", ""},
	} {
		fio.set(tc.fio)
		home := a.get("/")
		if got := home.text("h1"); got != tc.greeting {
			t.Errorf("%q: greeting %q", tc.fio, got)
		}
		if got := home.text(".who"); got != tc.who {
			t.Errorf("%q: menu on home %q", tc.fio, got)
		}
		calls := a.sb.AllCalls()["auth/getClientInfo"]
		if got := a.get("/orders").text(".who"); got != tc.who {
			t.Errorf("%q: menu on the orders %q", tc.fio, got)
		}
		if a.sb.AllCalls()["auth/getClientInfo"] != calls {
			t.Errorf("the orders page asked for the profile")
		}
	}
}
