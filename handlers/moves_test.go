package handlers_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"lk/gateway/sandbox"
)

// moveTo moves the booking at page with form as the demo customer would and
// answers where the move landed.
func (a *app) moveTo(page string, form url.Values) string {
	a.t.Helper()
	form.Set("token", a.get(page+"/transfer?date="+form.Get("date")).formValues(page+"/transfer").Get("token"))
	r := a.post(page+"/transfer", form)
	loc := r.Header.Get("Location")
	if r.StatusCode != http.StatusSeeOther || !strings.HasPrefix(loc, "/orders/") || loc == page {
		a.t.Fatalf("move %s: %d → %q\n%s", page, r.StatusCode, loc, r.text("main"))
	}
	return loc
}

// An old link of a moved lesson or rent (a bookmark, the calendar event
// added before the move) leads its owner to the booking it became, along a
// chain of moves; the old calendar link gives the new event.
func TestOldLinkOfMovedBookingRedirects(t *testing.T) {
	a := signedIn(t)
	old := "/orders/glk/" + sandbox.DemoLessonTransferable
	page := old
	var pages []string
	for i := range 2 {
		date, choice := a.firstChoice(page+"/transfer", "lessonId", 1+i, 28)
		if choice == "" {
			t.Fatalf("move %d: no lesson to move to", i+1)
		}
		pages = append(pages, page)
		page = a.moveTo(page, url.Values{"date": {date}, "lessonId": {choice}})
	}
	rc := rentCases[0]
	d := findSlotDay(t, a, rc)
	rent := a.moveTo(rc.page(), url.Values{"date": {d.date}, "from": {d.freeFrom}, "to": {plus(d.freeFrom, rc.hours)}})

	for _, c := range []struct{ from, to string }{{pages[0], page}, {pages[1], page}, {rc.page(), rent}} {
		r := a.get(c.from)
		if r.StatusCode != http.StatusSeeOther || r.Header.Get("Location") != c.to {
			t.Errorf("GET %s: %d → %q, want 303 → %s", c.from, r.StatusCode, r.Header.Get("Location"), c.to)
		}
		if r := a.get(c.to); r.StatusCode != http.StatusOK {
			t.Errorf("GET %s: %d", c.to, r.StatusCode)
		}
		r = a.get(c.from + "/calendar.ics")
		if r.StatusCode != http.StatusSeeOther || r.Header.Get("Location") != c.to+"/calendar.ics" {
			t.Errorf("GET %s/calendar.ics: %d → %q", c.from, r.StatusCode, r.Header.Get("Location"))
		}
		if r := a.get(c.to + "/calendar.ics"); r.StatusCode != http.StatusOK || !strings.Contains(r.body, "BEGIN:VEVENT") {
			t.Errorf("GET %s/calendar.ics: %d", c.to, r.StatusCode)
		}
	}

	// Another customer is not told where someone's booking went, and the
	// provider is not asked.
	other := a.newClient()
	a.signIn(other, otherPhone)
	a.sb.Reset()
	for _, p := range []string{old, old + "/calendar.ics", rc.page(), rc.page() + "/calendar.ics"} {
		if r := a.getWith(other, p); r.StatusCode != http.StatusNotFound || r.Header.Get("Location") != "" {
			t.Errorf("another customer, GET %s: %d → %q, want 404", p, r.StatusCode, r.Header.Get("Location"))
		}
	}
	if calls := a.sb.AllCalls(); len(calls) != 0 {
		t.Errorf("another customer's old links called the provider: %v", calls)
	}
}
