package handlers_test

import (
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"lk/gateway/sandbox"
)

const keptSignInText = "Время входа истекло — войдите снова, и мы вернём вас к форме"

// endSession drops c's session cookie, as its end (or a sign-out in another
// tab) does, while the page with the form stays open.
func (a *app) endSession(c *http.Client) {
	a.t.Helper()
	u, _ := url.Parse(a.srv.URL)
	c.Jar.SetCookies(u, []*http.Cookie{{Name: "__Host-lk_session", Value: "", Path: "/", MaxAge: -1, Secure: true}})
	if r := a.getWith(c, "/"); r.StatusCode != http.StatusSeeOther {
		a.t.Fatalf("the session did not end: %d", r.StatusCode)
	}
}

// signInTo signs c in as phone with JavaScript off and answers where the
// code sends it.
func (a *app) signInTo(c *http.Client, phone string) string {
	a.t.Helper()
	a.clock.Add(61 * time.Second) // a new code for this phone is allowed
	if r := a.postWith(c, "/login", url.Values{"phone": {phone}}, nil); r.StatusCode != http.StatusSeeOther {
		a.t.Fatalf("POST /login: %d\n%s", r.StatusCode, r.text("main"))
	}
	r := a.postWith(c, "/login/code", url.Values{"code": {a.code(phone)}}, nil)
	if r.StatusCode != http.StatusSeeOther {
		a.t.Fatalf("POST /login/code: %d\n%s", r.StatusCode, r.text("main"))
	}
	return r.Header.Get("Location")
}

// lapse posts form to action after the session ended: the browser goes to
// /login, which says why.
func (a *app) lapse(c *http.Client, post func() *resp) {
	a.t.Helper()
	a.endSession(c)
	r := post()
	if r.StatusCode != http.StatusSeeOther || r.Header.Get("Location") != "/login" {
		a.t.Fatalf("a form after the session: %d → %q", r.StatusCode, r.Header.Get("Location"))
	}
	if got := a.getWith(c, "/login").text("#kept-notice"); got != keptSignInText {
		a.t.Errorf("/login says %q", got)
	}
}

// A form sent after its session ended, of every kind, leads after the code
// back to its page with the choice kept, and nothing is sent for it.
func TestKeptFormEveryKind(t *testing.T) {
	aquaPage := "/orders/aqua/" + sandbox.DemoAquaPaid + "/transfer"
	lessonPage := "/orders/glk/" + sandbox.DemoLessonTransferable + "/transfer"
	rentPage := "/orders/pavilion/" + sandbox.DemoPavilionRent + "/transfer"
	hotelPage := "/orders/hotel/" + sandbox.DemoHotelPaid + "/transfer"
	for _, tc := range []struct {
		name, page, action, call string
		answers                  func(a *app) url.Values
		landing                  func(url.Values) string
		check                    func(t *testing.T, r *resp, answers url.Values)
	}{
		{name: "a water-park move", page: aquaPage, action: aquaPage, call: "aqua/transferTicket",
			answers: func(a *app) url.Values {
				date, session := a.firstChoice(aquaPage, "sessionId", 1, 30)
				return url.Values{"date": {date}, "sessionId": {session}}
			},
			landing: func(v url.Values) string { return aquaPage + "?" + v.Encode() },
			check: func(t *testing.T, r *resp, v url.Values) {
				if r.doc.Find(`input[name="sessionId"][value="`+v.Get("sessionId")+`"][checked]`).Length() != 1 {
					t.Error("the session is not chosen")
				}
			}},
		{name: "a lesson move", page: lessonPage, action: lessonPage, call: "GLK/changeLessonPeriod",
			answers: func(a *app) url.Values {
				date, lesson := a.firstChoice(lessonPage, "lessonId", 1, 30)
				return url.Values{"date": {date}, "lessonId": {lesson}}
			},
			landing: func(v url.Values) string { return lessonPage + "?" + v.Encode() },
			check: func(t *testing.T, r *resp, v url.Values) {
				if r.doc.Find(`input[name="date"][value="`+v.Get("date")+`"]`).Length() == 0 {
					t.Error("the day is not chosen")
				}
			}},
		{name: "a rent's hours", page: rentPage, action: rentPage, call: "Rent/changePavilionRentPeriod",
			answers: func(a *app) url.Values { return url.Values{"date": {a.isoDay(3)}, "from": {"10:00"}, "to": {"12:00"}} },
			landing: func(v url.Values) string { return rentPage + "?" + v.Encode() },
			check: func(t *testing.T, r *resp, v url.Values) {
				if r.doc.Find(`input[name="date"][value="`+v.Get("date")+`"]`).Length() == 0 {
					t.Error("the day is not chosen")
				}
			}},
		{name: "a hotel stay", page: hotelPage, action: hotelPage, call: "hotel/pushReservation",
			answers: func(a *app) url.Values { return url.Values{"dateIn": {a.isoDay(5)}, "dateOut": {a.isoDay(7)}} },
			landing: func(v url.Values) string { return hotelPage + "?" + v.Encode() },
			check: func(t *testing.T, r *resp, v url.Values) {
				if r.doc.Find(`input[name="dateIn"][value="`+v.Get("dateIn")+`"]`).Length() == 0 ||
					r.doc.Find(`input[name="dateOut"][value="`+v.Get("dateOut")+`"]`).Length() == 0 {
					t.Error("the stay is not chosen")
				}
			}},
		{name: "a cancel", page: "/orders/pavilion/" + sandbox.DemoPavilionCancelOnly + "/cancel", action: "/orders/pavilion/" + sandbox.DemoPavilionCancelOnly + "/cancel",
			call: "Rent/cancelPavilionRent", answers: func(a *app) url.Values { return url.Values{} },
			landing: func(url.Values) string { return "/orders/pavilion/" + sandbox.DemoPavilionCancelOnly + "/cancel" }},
		{name: "a confirmation", page: "/orders/glk/" + sandbox.DemoLessonConfirmable, action: "/orders/glk/" + sandbox.DemoLessonConfirmable + "/confirm",
			call: "GLK/confirmLesson", answers: func(a *app) url.Values { return url.Values{} },
			landing: func(url.Values) string { return "/orders/glk/" + sandbox.DemoLessonConfirmable }},
		{name: "the profile", page: "/profile/edit", action: "/profile/edit", call: "auth/clientEditInfo",
			answers: func(a *app) url.Values {
				return url.Values{"lastName": {"Сидоров"}, "firstName": {"Пётр"}, "middleName": {""}, "gender": {"MALE"}, "birthday": {"01.02.1990"}}
			},
			landing: func(url.Values) string { return "/profile/edit" },
			check: func(t *testing.T, r *resp, v url.Values) {
				for _, f := range []string{"lastName", "firstName", "birthday"} {
					if got := r.doc.Find(`input[name="`+f+`"]`).AttrOr("value", ""); got != v.Get(f) {
						t.Errorf("%s: %q", f, got)
					}
				}
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := signedIn(t) // each kind's own: a phone gets 5 codes in 2 hours
			answers := tc.answers(a)
			p := a.get(tc.page)
			if p.StatusCode != http.StatusOK {
				t.Fatalf("GET %s: %d", tc.page, p.StatusCode)
			}
			form := p.formValues(tc.action)
			for k, v := range answers {
				form[k] = v
			}
			calls := a.sb.AllCalls()[tc.call]
			a.lapse(a.client, func() *resp { return a.post(tc.action, form) })
			to := a.signInTo(a.client, demoPhone)
			if to != tc.landing(answers) {
				t.Fatalf("after the code: %q, want %q", to, tc.landing(answers))
			}
			r := a.get(to)
			if r.StatusCode >= 500 || r.StatusCode == http.StatusNotFound {
				t.Fatalf("GET %s: %d", to, r.StatusCode)
			}
			if !strings.Contains(r.text(".notice-ok"), "Мы вернули вас к форме") {
				t.Errorf("no notice: %q", r.text(".notice-ok"))
			}
			if tc.check != nil {
				tc.check(t, r, answers)
			}
			if got := a.sb.AllCalls()[tc.call]; got != calls {
				t.Errorf("%s called %d times for the kept form", tc.call, got-calls)
			}
			// Taken once: the page again is the page as it always is.
			if again := a.get(to); again.text(".notice-ok") != "" {
				t.Errorf("the notice again: %q", again.text(".notice-ok"))
			}
		})
	}
}

// A refund sent after its session ended keeps its reason and its document
// on the server; after the code they fill the form, and sending it again
// gives the provider the document byte for byte.
func TestKeptRefundWithADocument(t *testing.T) {
	a := signedIn(t)
	action := "/orders/aqua/" + sandbox.DemoAquaToday + "/refund"
	p := a.get(action)
	d := doc("справка.pdf", 200<<10)
	a.lapse(a.client, func() *resp {
		return a.resubmit(a.client, p, action, url.Values{"comment": {"Заболел ребёнок"}, "surname": {"Петрова"}}, []upload{d})
	})
	if n := a.sb.AllCalls()["aqua/registerRefund1C"]; n != 0 {
		t.Fatalf("the provider was called %d times", n)
	}
	if to := a.signInTo(a.client, demoPhone); to != action {
		t.Fatalf("after the code: %q", to)
	}
	r := a.get(action)
	if got := r.text(`textarea[name="comment"]`); got != "Заболел ребёнок" {
		t.Errorf("reason %q", got)
	}
	if got := r.doc.Find(`input[name="surname"]`).AttrOr("value", ""); got != "Петрова" {
		t.Errorf("surname %q", got)
	}
	if !strings.Contains(r.text("main"), "справка.pdf") {
		t.Errorf("the document is not listed:\n%s", r.text("main"))
	}
	if n := a.sb.AllCalls()["aqua/registerRefund1C"]; n != 0 {
		t.Fatalf("the provider was called %d times", n)
	}
	sent := a.resubmit(a.client, r, action, nil, nil)
	if sent.StatusCode != http.StatusSeeOther || sent.Header.Get("Location") != "/orders" {
		t.Fatalf("sent again: %d\n%s", sent.StatusCode, sent.text("main"))
	}
	got := a.lastRefund()
	sameDocs(t, got.Documents, d)
	if got.Form.Comment != "Заболел ребёнок" {
		t.Errorf("reason sent %q", got.Form.Comment)
	}
}

// Another customer signing in in that browser never sees the first one's
// form: they land home, the refund's reason and document are dropped, and
// the first customer signing in afterwards finds nothing either.
func TestKeptFormNotForAnotherCustomer(t *testing.T) {
	a := signedIn(t)
	action := "/orders/aqua/" + sandbox.DemoAquaToday + "/refund"
	p := a.get(action)
	a.lapse(a.client, func() *resp {
		return a.resubmit(a.client, p, action, url.Values{"comment": {"Личная причина первого"}}, []upload{doc("справка.pdf", 10<<10)})
	})
	if to := a.signInTo(a.client, otherPhone); to != "/" {
		t.Errorf("another customer lands on %q", to)
	}
	if home := a.get("/"); strings.Contains(home.body, "Личная причина первого") || strings.Contains(home.text(".notice-ok"), "форм") {
		t.Error("another customer sees the first one's form")
	}
	profile := a.get("/profile/edit")
	if strings.Contains(profile.body, "Личная причина первого") || strings.Contains(profile.body, "справка.pdf") {
		t.Error("another customer's page shows the kept form")
	}
	a.post("/logout", profile.formValues("/logout"))
	if to := a.signInTo(a.client, demoPhone); to != "/" {
		t.Errorf("the form was kept past another sign-in: %q", to)
	}
	if r := a.get(action); strings.Contains(r.body, "Личная причина первого") || strings.Contains(r.body, "справка.pdf") {
		t.Error("the dropped form came back")
	}

	// The profile too: the second customer's form shows their own data.
	a.get("/profile/edit")
	pf := a.get("/profile/edit")
	form := pf.formValues("/profile/edit")
	form.Set("lastName", "Чужая")
	form.Set("firstName", "Фамилия")
	a.lapse(a.client, func() *resp { return a.post("/profile/edit", form) })
	if to := a.signInTo(a.client, otherPhone); to != "/" {
		t.Errorf("another customer lands on %q", to)
	}
	if r := a.get("/profile/edit"); strings.Contains(r.body, "Чужая") {
		t.Error("another customer's profile form holds the first one's answers")
	}
}

// A kept form is taken once: many requests of its page at once, one fills
// the form in; the rest show the page as it always is.
func TestKeptFormTakenOnceUnderBurst(t *testing.T) {
	a := signedIn(t)
	action := "/orders/aqua/" + sandbox.DemoAquaToday + "/refund"
	p := a.get(action)
	a.lapse(a.client, func() *resp {
		return a.resubmit(a.client, p, action, url.Values{"comment": {"Причина"}}, []upload{doc("справка.pdf", 10<<10)})
	})
	if to := a.signInTo(a.client, demoPhone); to != action {
		t.Fatalf("after the code: %q", to)
	}
	var filled, listed atomic.Int32
	parallel(24, func(int) {
		r := a.get(action)
		if r.text(`textarea[name="comment"]`) == "Причина" {
			filled.Add(1)
		}
		if strings.Contains(r.body, "справка.pdf") {
			listed.Add(1)
		}
	})
	if filled.Load() != 1 {
		t.Errorf("%d pages filled in from one kept form", filled.Load())
	}
	if listed.Load() < 1 {
		t.Error("the document is not listed")
	}
}

// Only a form of ours with its own token is kept: a forged or missing token,
// or an island's fetch (its island posts the plain form after), keep
// nothing, and /login says nothing of a form.
func TestKeptFormOnlyWithItsToken(t *testing.T) {
	a := signedIn(t)
	page := "/orders/pavilion/" + sandbox.DemoPavilionCancelOnly + "/cancel"
	form := a.get(page).formValues(page)
	a.endSession(a.client)
	for name, post := range map[string]func() *resp{
		"no token":     func() *resp { return a.post(page, url.Values{}) },
		"forged token": func() *resp { return a.post(page, url.Values{"token": {"x" + form.Get("token")}}) },
		"an island":    func() *resp { return a.postWith(a.client, page, form, asIsland) },
		"another order's token": func() *resp {
			return a.post("/orders/pavilion/"+sandbox.DemoPavilionRent+"/cancel", form)
		},
	} {
		if r := post(); r.StatusCode != http.StatusSeeOther {
			t.Errorf("%s: %d", name, r.StatusCode)
		}
		if got := a.get("/login").text("#kept-notice"); got != "" {
			t.Errorf("%s: /login says %q", name, got)
		}
	}
	if to := a.signInTo(a.client, demoPhone); to != "/" {
		t.Errorf("lands on %q", to)
	}
}
