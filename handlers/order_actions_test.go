package handlers_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"lk/gateway/sandbox"
)

// confirmForm signs the demo customer in and opens the form that confirms
// a lesson: the lesson's page, the form's action and its values.
func confirmForm(t *testing.T) (a *app, page, action string, form url.Values) {
	t.Helper()
	a = signedIn(t)
	page = "/orders/glk/" + sandbox.DemoLessonConfirmable
	action = page + "/confirm"
	if form = a.get(page).formValues(action); form.Get("token") == "" {
		t.Fatal("the confirm form carries no token")
	}
	return a, page, action, form
}

// A double click, a retry and a burst of the same form reach the provider
// once, and every answer is the first one's.
func TestActionTokenOnceUnderBurst(t *testing.T) {
	a, page, action, form := confirmForm(t)
	a.sb.SetFault("GLK/confirmLesson", sandbox.Fault{Delay: 200_000_000}) // 0.2 s: the burst arrives while the first runs
	const n = 30
	answers := atOnce(n, func(int) *resp { return a.postWith(a.client, action, form, nil) })
	if got := a.sb.AllCalls()["GLK/confirmLesson"]; got != 1 {
		t.Errorf("the provider was asked %d times, want 1", got)
	}
	for i, r := range answers {
		if r.StatusCode != http.StatusSeeOther || r.Header.Get("Location") != page {
			t.Errorf("answer %d: %d → %q, want the first outcome (303 to the lesson)", i, r.StatusCode, r.Header.Get("Location"))
		}
	}
	// Later, the same form again: still the first outcome, no call.
	if r := a.postWith(a.client, action, form, nil); r.StatusCode != http.StatusSeeOther || a.sb.AllCalls()["GLK/confirmLesson"] != 1 {
		t.Errorf("replay: %d, calls %d", r.StatusCode, a.sb.AllCalls()["GLK/confirmLesson"])
	}
	// One confirm done; the other 30 answers are replays, counted apart.
	m := a.metrics()
	for _, want := range []string{`lk_actions_total{action="confirm",kind="glk",outcome="ok"} 1` + "\n",
		`lk_actions_total{action="confirm",kind="glk",outcome="replay"} 30` + "\n"} {
		if !strings.Contains(m, want) {
			t.Errorf("metrics lack %q:\n%s", want, grepLines(m, "lk_actions_total"))
		}
	}
}

// grepLines is the lines of s that contain sub.
func grepLines(s, sub string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, sub) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// A token is good only for its own session, order and action; without one
// nothing happens and the form comes back with a token that works.
func TestActionTokenBoundToSessionOrderAndAction(t *testing.T) {
	a, _, action, mine := confirmForm(t)

	// The same customer signed in on another browser: another session.
	other := a.newClient()
	a.signIn(other, demoPhone)
	if r := a.postWith(other, action, mine, nil); r.StatusCode != http.StatusConflict {
		t.Errorf("another session's token: %d, want 409", r.StatusCode)
	}
	// Another order's form.
	theirs := a.get("/orders/glk/" + sandbox.DemoLessonTransferable).formValues("/orders/glk/" + sandbox.DemoLessonTransferable + "/confirm")
	if r := a.post(action, theirs); r.StatusCode != http.StatusConflict {
		t.Errorf("another order's token: %d, want 409", r.StatusCode)
	}
	// No token at all.
	r := a.post(action, url.Values{})
	if r.StatusCode != http.StatusConflict {
		t.Errorf("no token: %d, want 409", r.StatusCode)
	}
	if got := r.text(".notice-err"); got != "Страница устарела. Проверьте данные и отправьте ещё раз." {
		t.Errorf("no token: %q", got)
	}
	if n := a.sb.AllCalls()["GLK/confirmLesson"]; n != 0 {
		t.Fatalf("a refused token reached the provider %d times", n)
	}
	// The page shown again carries a token that works.
	if r := a.post(action, r.formValues(action)); r.StatusCode != http.StatusSeeOther || a.sb.AllCalls()["GLK/confirmLesson"] != 1 {
		t.Errorf("with the new token: %d, calls %d", r.StatusCode, a.sb.AllCalls()["GLK/confirmLesson"])
	}
}

// A failure leaves the customer a working form; the failed token itself
// keeps answering the failure without calling again.
func TestActionFailureKeepsAChance(t *testing.T) {
	a, _, action, form := confirmForm(t)
	a.sb.SetFault("GLK/confirmLesson", sandbox.Fault{Status: http.StatusInternalServerError})
	r := a.post(action, form)
	if r.StatusCode != http.StatusBadGateway || r.text(".notice-err") != "Не удалось подтвердить запись" {
		t.Fatalf("failure: %d %q", r.StatusCode, r.text(".notice-err"))
	}
	a.sb.SetFault("GLK/confirmLesson", sandbox.Fault{})
	if again := a.post(action, form); again.StatusCode != http.StatusBadGateway || a.sb.AllCalls()["GLK/confirmLesson"] != 1 {
		t.Errorf("the failed token again: %d, calls %d", again.StatusCode, a.sb.AllCalls()["GLK/confirmLesson"])
	}
	if ok := a.post(action, r.formValues(action)); ok.StatusCode != http.StatusSeeOther || a.sb.AllCalls()["GLK/confirmLesson"] != 2 {
		t.Errorf("the new token: %d, calls %d", ok.StatusCode, a.sb.AllCalls()["GLK/confirmLesson"])
	}
}
