package handlers_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"lk/gateway"
	"lk/gateway/sandbox"
	"lk/handlers"
)

// A "move" to the dates already booked moves nothing: it is refused in
// Russian at the check-in, and neither the dates nor the move are asked of
// the provider.
func TestHotelMoveToTheSameDates(t *testing.T) {
	a := signedIn(t)
	o, err := a.sandboxClient().HotelOrder(context.Background(), sandbox.DemoGUID, sandbox.DemoHotelPaid)
	if err != nil {
		t.Fatal(err)
	}
	in, _ := gateway.ParseDateTime(o.HourBeg, nil)
	out, _ := gateway.ParseDateTime(o.HourEnd, nil)
	page := "/orders/hotel/" + sandbox.DemoHotelPaid + "/transfer"
	dates := a.sb.Calls("hotel/getDates")
	r := a.submit(a.client, page, page, url.Values{"dateIn": {gateway.FormatISODate(in, nil)}, "dateOut": {gateway.FormatISODate(out, nil)}})
	want := "Это даты вашего бронирования: выберите другие даты заезда или выезда."
	if r.StatusCode != http.StatusUnprocessableEntity || r.fieldError("dateIn") != want || !strings.Contains(r.text("#error-summary"), want) {
		t.Errorf("the same dates: %d %q", r.StatusCode, r.fieldError("dateIn"))
	}
	if strings.Contains(r.text("main"), "выполнен успешно") {
		t.Error("the same dates reported as moved")
	}
	if n := a.sb.Calls("hotel/pushReservation"); n != 0 {
		t.Errorf("hotel/pushReservation called %d times", n)
	}
	// Only the page shown again lists the nights: the rule asked nothing.
	if n := a.sb.Calls("hotel/getDates") - dates; n != 2 { // the GET of the form and the 422 page
		t.Errorf("hotel/getDates called %d times", n)
	}
}

// The provider's dates failing is said once on the page, GET or POST.
func TestHotelMoveDatesFailureSaidOnce(t *testing.T) {
	a := signedIn(t)
	page := "/orders/hotel/" + sandbox.DemoHotelPaid + "/transfer"
	p := a.get(page)
	form := p.formValues(page)
	form.Set("dateIn", a.isoDay(2))
	form.Set("dateOut", a.isoDay(4))
	a.sb.SetFault("hotel/getDates", sandbox.Fault{Status: http.StatusInternalServerError, Malformed: true})
	for name, r := range map[string]*resp{"GET": a.get(page), "POST": a.post(page, form)} {
		if n := strings.Count(r.text("main"), "Ошибка при получении доступных дат"); n != 1 {
			t.Errorf("%s: the message %d times", name, n)
		}
		if r.doc.Find("table.nights").Length() != 0 {
			t.Errorf("%s: a table of nights without nights", name)
		}
	}
}

// Without JavaScript the nights and their prices come before the dates to
// choose and the buttons.
func TestHotelMoveNightsAboveTheButtons(t *testing.T) {
	a := signedIn(t)
	page := "/orders/hotel/" + sandbox.DemoHotelPaid + "/transfer"
	r := a.get(page)
	form := r.doc.Find(`form[method=post][action="` + page + `"]`)
	html, _ := form.Html()
	table, dateIn, button := strings.Index(html, `class="nights"`), strings.Index(html, `name="dateIn"`), strings.Index(html, `type="submit"`)
	if table < 0 || dateIn < table || button < dateIn {
		t.Errorf("in the move's form: nights at %d, check-in at %d, button at %d", table, dateIn, button)
	}
}

// noSessions is a provider whose water park has no sessions on any day.
type noSessions struct{ handlers.Provider }

func (noSessions) AquaSessions(context.Context, time.Time) ([]gateway.AquaSession, error) {
	return []gateway.AquaSession{}, nil
}

// Without JavaScript a day with nothing to choose offers no move: beside
// 'На эту дату нет подходящих сеансов' there is no 'Перенести билеты'.
func TestAquaMoveNoSessionsNoButton(t *testing.T) {
	a := newAppWith(t, func(p handlers.Provider) handlers.Provider { return noSessions{p} })
	a.signIn(a.client, demoPhone)
	page := "/orders/aqua/" + sandbox.DemoAquaPaid + "/transfer"
	r := a.get(page)
	if !strings.Contains(r.text("fieldset.choices"), "На эту дату нет подходящих сеансов") {
		t.Fatalf("no sessions: %q", r.text("fieldset.choices"))
	}
	if b := r.doc.Find(`.actions > button[type=submit]`); b.Length() != 1 || b.AttrOr("hidden", "no") == "no" || !strings.Contains(b.Text(), "Перенести билеты") {
		t.Errorf("the move's button is offered without sessions (%d buttons)", b.Length())
	}
	if r := signedIn(t).get(page); r.doc.Find(`.actions > button[type=submit][hidden]`).Length() != 0 {
		t.Error("the move's button hidden on a day with sessions")
	}
}
