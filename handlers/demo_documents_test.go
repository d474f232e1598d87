package handlers_test

import (
	"strings"
	"testing"

	ics "github.com/arran4/golang-ical"

	"lk/gateway/sandbox"
	"lk/handlers"
	"lk/views"
)

// A demo ticket, voucher or calendar event is printed, forwarded or added to
// a real calendar: each says it is the demo's, as every page does.
func TestDemoDocumentsSayDemo(t *testing.T) {
	a := signedIn(t)
	for _, doc := range []string{"/orders/aqua/" + sandbox.DemoAquaPaid + "/ticket.pdf", "/orders/hotel/" + sandbox.DemoHotelPaid + "/voucher.pdf"} {
		if text := pdfText(t, a, doc); text != "" && !strings.Contains(text, "Демонстрационный режим") {
			t.Errorf("%s: no demo notice in %q", doc, text)
		}
	}
	page := "/orders/aqua/" + sandbox.DemoAquaPaid
	e := a.event(page)
	if d := e.GetProperty(ics.ComponentPropertyDescription); d == nil || !strings.HasPrefix(d.Value, views.DemoNotice) {
		t.Errorf("%s/calendar.ics: DESCRIPTION %v", page, d)
	}
	if s := e.GetProperty(ics.ComponentPropertySummary); s == nil || !strings.HasPrefix(s.Value, "(демо) ") {
		t.Errorf("%s/calendar.ics: SUMMARY %v", page, s)
	}

	// With the resort's own gateway the account's event is a booking.
	real := newAppOptions(t, nil, func(o *handlers.Options) { o.Site.SandboxURL = "" })
	real.signIn(real.client, demoPhone)
	r := real.get(page + "/calendar.ics")
	if r.StatusCode != 200 || strings.Contains(r.body, "Демонстрационный") || strings.Contains(r.body, "демо") {
		t.Errorf("not a demo: %d\n%s", r.StatusCode, r.body)
	}
}
