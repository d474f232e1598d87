package handlers_test

import (
	"maps"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"lk/gateway/sandbox"
)

// leadsTo is the way on a refusal's page offers: its button's address and
// words.
func (r *resp) leadsTo() (href, label string) {
	b := r.doc.Find("main [data-refusal] a.btn")
	return b.AttrOr("href", ""), strings.TrimSpace(b.Text())
}

// A document that can no longer be had, opened from a page left open, is a
// page saying why, with the way back to the order: never a file that fails
// without a word. The order's page links it plainly (no download
// attribute, which would hide the refusal); the file itself comes as an
// attachment.
func TestDocumentRefusalsLeadBackToTheOrder(t *testing.T) {
	a := signedIn(t)
	page := "/orders/hotel/" + sandbox.DemoHotelPaid
	voucher := a.get(page).doc.Find(`a[data-action="document"]`)
	if voucher.AttrOr("href", "") != page+"/voucher.pdf" || voucher.AttrOr("download", "none") != "none" {
		t.Fatalf("the voucher's link: %q, download %q", voucher.AttrOr("href", ""), voucher.AttrOr("download", "none"))
	}
	// Cancelled in another tab while this page stays open.
	if r := a.submit(a.client, page+"/cancel", page+"/cancel", nil); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("cancel: %d %q", r.StatusCode, r.text(".notice-err"))
	}
	a.sb.Reset()
	for _, tc := range []struct{ path, want string }{
		{page + "/voucher.pdf", "Заказ отменён, поэтому документ недоступен."},
		{"/orders/aqua/" + sandbox.DemoAquaUnpaid + "/ticket.pdf", "Билет будет доступен после оплаты всех билетов заказа."},
		{"/orders/aqua/" + sandbox.DemoAquaCanceled + "/ticket.pdf", "Заказ отменён, поэтому документ недоступен."},
	} {
		r := a.get(tc.path)
		if r.StatusCode != http.StatusConflict || strings.HasPrefix(r.body, "%PDF") || r.Header.Get("Content-Disposition") != "" {
			t.Errorf("%s: %d %q", tc.path, r.StatusCode, r.Header.Get("Content-Disposition"))
		}
		if got := r.text("main [data-refusal] p"); !strings.Contains(got, tc.want) {
			t.Errorf("%s says %q, want %q", tc.path, got, tc.want)
		}
		order := tc.path[:strings.LastIndex(tc.path, "/")]
		if href, label := r.leadsTo(); href != order || label != "Вернуться к заказу" {
			t.Errorf("%s leads to %q %q, want %s", tc.path, href, label, order)
		}
		if back := a.get(order); back.StatusCode != http.StatusOK || back.doc.Find(`a[data-action="document"]`).Length() != 0 {
			t.Errorf("%s: the order's page %d still offers the document", order, back.StatusCode)
		}
	}
	if n := a.sb.AllCalls()["aqua/generatePdf"] + a.sb.AllCalls()["hotel/generatePdf"]; n != 0 {
		t.Errorf("the provider was asked for a refused document %d times", n)
	}
	// A past order's calendar file leads back too.
	past := "/orders/aqua/" + sandbox.DemoAquaPast
	if r := a.get(past + "/calendar.ics"); r.StatusCode != http.StatusConflict {
		t.Errorf("a past order's calendar file: %d", r.StatusCode)
	} else if href, _ := r.leadsTo(); href != past {
		t.Errorf("a past order's calendar file leads to %q", href)
	}

	// Another customer's documents are not found, and lead nowhere.
	other := a.newClient()
	a.signIn(other, otherPhone)
	for _, p := range []string{
		page + "/voucher.pdf", "/orders/aqua/" + sandbox.DemoAquaUnpaid + "/ticket.pdf",
		"/orders/aqua/" + sandbox.DemoAquaPaid + "/ticket.pdf", "/orders/aqua/" + sandbox.DemoAquaPaid + "/calendar.ics",
	} {
		r := a.getWith(other, p)
		if href, _ := r.leadsTo(); r.StatusCode != http.StatusNotFound || href != "" || strings.Contains(r.body, "Вернуться к заказу") {
			t.Errorf("another customer, %s: %d, leads to %q", p, r.StatusCode, href)
		}
	}
}

// The move page of a booking moved in another tab, opened or sent, says
// what became of it and leads to the booking it became; another customer
// learns nothing of either.
func TestOldMovePageLeadsToTheNewOrder(t *testing.T) {
	a := signedIn(t)
	move := "/orders/glk/" + sandbox.DemoLessonTransferable + "/transfer"
	date, lesson := a.firstChoice(move, "lessonId", 1, 30)
	chosen := url.Values{"date": {date}, "lessonId": {lesson}}
	second := a.get(move).formValues(move)
	r := a.submit(a.client, move, move, chosen)
	if r.StatusCode != http.StatusSeeOther {
		t.Fatalf("move: %d %q", r.StatusCode, r.text(".notice-err, .summary"))
	}
	loc := r.Header.Get("Location")
	newID := loc[strings.LastIndex(loc, "/")+1:]
	a.get(loc) // the notice, once
	maps.Copy(second, chosen)
	want := "Вы перенесли этот заказ " + a.when() + ": теперь это заказ № " + newID + "."
	for name, got := range map[string]*resp{"POST": a.post(move, second), "GET": a.get(move)} {
		if got.StatusCode != http.StatusConflict || !strings.Contains(got.text("main [data-refusal]"), want) {
			t.Errorf("%s the old move page: %d %q", name, got.StatusCode, got.text("main"))
		}
		if href, label := got.leadsTo(); href != "/orders/glk/"+newID || label != "Открыть заказ № "+newID {
			t.Errorf("%s the old move page leads to %q %q", name, href, label)
		}
	}
	if n := a.sb.AllCalls()["GLK/changeLessonPeriod"]; n != 1 {
		t.Errorf("changeLessonPeriod called %d times", n)
	}
	if r := a.get("/orders/glk/" + newID); r.StatusCode != http.StatusOK {
		t.Errorf("the new order: %d", r.StatusCode)
	}

	other := a.newClient()
	a.signIn(other, otherPhone)
	for _, p := range []string{move, "/orders/glk/" + newID, "/orders/glk/" + newID + "/transfer"} {
		r := a.getWith(other, p)
		if href, _ := r.leadsTo(); r.StatusCode != http.StatusNotFound || href != "" || strings.Contains(r.body, "Открыть заказ") || strings.Contains(r.body, "перенесли") {
			t.Errorf("another customer, %s: %d, leads to %q", p, r.StatusCode, href)
		}
	}
	if n := a.sb.AllCalls()["GLK/changeLessonPeriod"]; n != 1 {
		t.Errorf("changeLessonPeriod called %d times after another customer", n)
	}
}
