package handlers_test

import (
	"encoding/json"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"lk/gateway/sandbox"
	"lk/handlers"
	"lk/internal/testkit"
	"lk/views"
)

// passOf is the order page's Wallet link, fetched: the passes it gives, each
// checked as Wallet checks it (manifest and signature), by serial.
func (a *app) passOf(page string) (href string, r *resp, passes map[string]map[string]any) {
	a.t.Helper()
	link := a.get(page).doc.Find(`.actions a[data-action="wallet"]`)
	href = link.AttrOr("href", "")
	if link.Length() != 1 || strings.TrimSpace(link.Text()) != "Добавить в Wallet" {
		a.t.Fatalf("%s: Wallet link %d %q", page, link.Length(), link.Text())
	}
	if _, ok := link.Attr("download"); ok {
		a.t.Errorf("%s: the Wallet link downloads: Safari would save the pass instead of showing it", page)
	}
	r = a.get(href)
	if r.StatusCode != http.StatusOK {
		a.t.Fatalf("%s: %d %s", href, r.StatusCode, r.text("main"))
	}
	passes = map[string]map[string]any{}
	add := func(b []byte) {
		p := testkit.PassJSON(a.t, testkit.Pass(a.t, b))
		passes[p["serialNumber"].(string)] = p
	}
	if strings.HasSuffix(href, ".pkpasses") {
		files, _ := testkit.Unzip(a.t, []byte(r.body))
		for name, b := range files {
			if !strings.HasSuffix(name, ".pkpass") {
				a.t.Errorf("%s: %s in the bundle", href, name)
			}
			add(b)
		}
	} else {
		add([]byte(r.body))
	}
	return href, r, passes
}

func codesOf(t *testing.T, passes map[string]map[string]any) []string {
	var codes []string
	for _, p := range passes {
		codes = append(codes, testkit.PassCodes(t, p)...)
	}
	slices.Sort(codes)
	return codes
}

func TestDemoOrdersOfferPasses(t *testing.T) {
	a := signedIn(t)
	starts := map[string]time.Time{}
	for _, c := range a.calendarCases() {
		starts[c.kind+"/"+c.id] = c.start
	}
	for _, c := range []struct {
		kind, id, file, ctype, style string
		passes                       int
	}{
		{"aqua", sandbox.DemoAquaPaid, "tickets.pkpasses", "application/vnd.apple.pkpasses", "eventTicket", 3},
		{"aqua", sandbox.DemoAquaToday, "ticket.pkpass", "application/vnd.apple.pkpass", "eventTicket", 1},
		{"hotel", sandbox.DemoHotelPaid, "voucher.pkpass", "application/vnd.apple.pkpass", "generic", 1},
		{"glk", sandbox.DemoLessonConfirmable, "lesson.pkpass", "application/vnd.apple.pkpass", "eventTicket", 1},
	} {
		page := "/orders/" + c.kind + "/" + c.id
		href, r, passes := a.passOf(page)
		if href != page+"/"+c.file {
			t.Errorf("%s: link %q", page, href)
		}
		// After the order's own actions, which a phone shows on its first
		// screen, and before the calendar's.
		if next := a.get(page).doc.Find(`.actions a[data-action="wallet"]`).Next().AttrOr("data-action", ""); next != "calendar" {
			t.Errorf("%s: the Wallet link is followed by %q, want the calendar's", page, next)
		}
		if got := r.Header.Get("Content-Type"); got != c.ctype {
			t.Errorf("%s: Content-Type %q", href, got)
		}
		ext := c.file[strings.LastIndex(c.file, "."):]
		if got := r.Header.Get("Content-Disposition"); got != `inline; filename="`+c.kind+"-"+c.id+ext+`"` {
			t.Errorf("%s: Content-Disposition %q", href, got)
		}
		if cc := r.Header.Get("Cache-Control"); !strings.Contains(cc, "private") || !strings.Contains(cc, "no-store") {
			t.Errorf("%s: Cache-Control %q", href, cc)
		}
		if len(passes) != c.passes {
			t.Errorf("%s: %d passes, want %d", href, len(passes), c.passes)
		}
		for serial, p := range passes {
			if !strings.HasPrefix(serial, c.kind+"-"+c.id) {
				t.Errorf("%s: serial %q", href, serial)
			}
			if _, ok := p[c.style]; !ok {
				t.Errorf("%s: not a %s pass", href, c.style)
			}
			// The demo's pass says so, in front and on its back.
			if d, _ := p["description"].(string); !strings.HasPrefix(d, "(демо) ") {
				t.Errorf("%s: description %q", href, d)
			}
			fields := fieldsOf(p, c.style)
			if fields["demoMark"] != "ДЕМО" || fields["demoNote"] != views.DemoNotice {
				t.Errorf("%s: no demo mark: %v", href, fields)
			}
			if fields["page"] != publicURL+page || fields["support"] != "+7 (800) 000-00-00" {
				t.Errorf("%s: back %v", href, fields)
			}
			if start, ok := starts[c.kind+"/"+c.id]; ok && p["relevantDate"] != start.Format(time.RFC3339) {
				t.Errorf("%s: relevantDate %v, want %v", href, p["relevantDate"], start.Format(time.RFC3339))
			}
			if _, ok := p["webServiceURL"]; ok {
				t.Errorf("%s: promises updates", href)
			}
			body, _ := json.Marshal(p)
			for _, private := range []string{"79000000000", "Иванов", sandbox.DemoGUID, "ivanov@"} {
				if strings.Contains(string(body), private) {
					t.Errorf("%s: holds %q", href, private)
				}
			}
		}
		if c.kind == "glk" {
			f := fieldsOf(passes["glk-"+c.id], c.style)
			if f["sport"] != "Горные лыжи" || f["trainer"] == "" || f["time"] != "10:00" || f["meet"] != "горнолыжный комплекс" {
				t.Errorf("%s: lesson fields %v", href, f)
			}
			if codes := codesOf(t, passes); len(codes) != 0 {
				t.Errorf("%s: a lesson has no code to scan, the pass shows %v", href, codes)
			}
		}
	}
}

// Every field of a pass by key.
func fieldsOf(p map[string]any, style string) map[string]string {
	out := map[string]string{}
	s, _ := p[style].(map[string]any)
	for _, group := range []string{"headerFields", "primaryFields", "secondaryFields", "auxiliaryFields", "backFields"} {
		list, _ := s[group].([]any)
		for _, f := range list {
			m := f.(map[string]any)
			out[m["key"].(string)] = m["value"].(string)
		}
	}
	return out
}

// The passes carry exactly the codes of the ticket or voucher PDF; a
// refunded ticket has no pass, as it has no code on the PDF.
func TestPassCodesAreThePDFsCodes(t *testing.T) {
	a := signedIn(t)
	for _, c := range []struct {
		kind, id, doc string
		passes        int
	}{
		{"aqua", sandbox.DemoAquaPaid, "ticket.pdf", 3},
		{"aqua", sandbox.DemoAquaVIPRefunded, "ticket.pdf", 2},
		{"hotel", sandbox.DemoHotelPaid, "voucher.pdf", 1},
	} {
		page := "/orders/" + c.kind + "/" + c.id
		_, _, passes := a.passOf(page)
		pdf := a.get(page + "/" + c.doc)
		want := testkit.PDFCodes(t, []byte(pdf.body))
		got := codesOf(t, passes)
		if len(passes) != c.passes || len(got) != c.passes {
			t.Errorf("%s: %d passes with %d codes, want %d", page, len(passes), len(got), c.passes)
		}
		if want != nil && !slices.Equal(got, want) {
			t.Errorf("%s: the passes' codes %v, the PDF's %v", page, got, want)
		}
		// The page shows the same codes under the tickets.
		if c.kind == "aqua" {
			var shown []string
			a.get(page).doc.Find(".tickets figcaption").Each(func(_ int, s *goquery.Selection) { shown = append(shown, strings.TrimSpace(s.Text())) })
			slices.Sort(shown)
			if !slices.Equal(got, shown) {
				t.Errorf("%s: the passes' codes %v, the page's %v", page, got, shown)
			}
		}
	}
}

// A pass that no longer lets anyone in is refused with the reason, and the
// order page stops offering it.
func TestPassOfAGoneBookingIs410(t *testing.T) {
	a := signedIn(t)
	for _, c := range []struct {
		path   string
		status int
		reason string
	}{
		{"/orders/aqua/" + sandbox.DemoAquaCanceled + "/tickets.pkpasses", http.StatusGone, "Заказ отменён, поэтому его пропуск в Wallet недействителен."},
		{"/orders/hotel/" + sandbox.DemoHotelCanceled + "/voucher.pkpass", http.StatusGone, "Заказ отменён, поэтому его пропуск в Wallet недействителен."},
		{"/orders/aqua/" + sandbox.DemoAquaPast + "/tickets.pkpasses", http.StatusGone, "Заказ уже прошёл: пропуск в Wallet бывает только у предстоящего."},
		{"/orders/glk/" + sandbox.DemoLessonPast + "/lesson.pkpass", http.StatusGone, "Заказ уже прошёл: пропуск в Wallet бывает только у предстоящего."},
		{"/orders/aqua/" + sandbox.DemoAquaUnpaid + "/ticket.pkpass", http.StatusConflict, "Пропуск в Wallet будет доступен после оплаты билетов."},
		// Not a file of the kind's.
		{"/orders/aqua/" + sandbox.DemoAquaPaid + "/voucher.pkpass", http.StatusNotFound, ""},
		{"/orders/hotel/" + sandbox.DemoHotelPaid + "/tickets.pkpasses", http.StatusNotFound, ""},
		{"/orders/pavilion/" + sandbox.DemoPavilionRent + "/lesson.pkpass", http.StatusNotFound, ""},
		{"/orders/aqua/999999/tickets.pkpasses", http.StatusNotFound, ""},
	} {
		r := a.get(c.path)
		if r.StatusCode != c.status || c.reason != "" && !strings.Contains(r.text("main"), c.reason) {
			t.Errorf("%s: %d %q, want %d %q", c.path, r.StatusCode, r.text("main"), c.status, c.reason)
		}
		if strings.HasPrefix(r.body, "PK") {
			t.Errorf("%s: a zip", c.path)
		}
		page := c.path[:strings.LastIndex(c.path, "/")]
		if n := a.get(page).doc.Find(`[data-action="wallet"]`).Length(); n != 0 && c.status != http.StatusNotFound {
			t.Errorf("%s: the page offers a pass", page)
		}
	}
	// Three tickets asked for as one pass: the bundle of the three.
	one := "/orders/aqua/" + sandbox.DemoAquaPaid + "/ticket.pkpass"
	if r := a.send(http.MethodGet, one, nil); r.StatusCode != http.StatusSeeOther || !strings.HasSuffix(r.Header.Get("Location"), "/tickets.pkpasses") {
		t.Errorf("%s: %d %q", one, r.StatusCode, r.Header.Get("Location"))
	}
}

// Refunded tickets leave the bundle; when none is left, the pass is gone
// with what the customer did.
func TestRefundedTicketsLeaveThePasses(t *testing.T) {
	a := signedIn(t)
	page := "/orders/aqua/" + sandbox.DemoAquaToday
	_, _, before := a.passOf(page)
	if len(before) != 1 {
		t.Fatalf("%d passes before the refund", len(before))
	}
	r := a.submitRefund(a.client, "aqua", sandbox.DemoAquaToday, url.Values{
		"tickets": a.ticketIDs(sandbox.DemoGUID, sandbox.DemoAquaToday, "paid"), "comment": {"Заболел"},
	}, []upload{doc("справка.pdf", 100)})
	if r.StatusCode != http.StatusSeeOther {
		t.Fatalf("refund: %d %s", r.StatusCode, r.text("main"))
	}
	if n := a.get(page).doc.Find(`[data-action="wallet"]`).Length(); n != 0 {
		t.Error("a refunded order offers its pass")
	}
	for _, f := range []string{"/ticket.pkpass", "/tickets.pkpasses"} {
		g := a.get(page + f)
		if g.StatusCode != http.StatusGone || !strings.Contains(g.text("main"), "Пропуск в Wallet недействителен.") {
			t.Errorf("%s: %d %q", f, g.StatusCode, g.text("main"))
		}
	}
}

// A moved lesson's old pass is refused with where the booking went; the new
// booking's pass keeps the first id's serial, so Wallet replaces the old.
func TestMovedLessonsPassIsGone(t *testing.T) {
	a := signedIn(t)
	old := "/orders/glk/" + sandbox.DemoLessonTransferable
	_, _, before := a.passOf(old)
	date, choice := a.firstChoice(old+"/transfer", "lessonId", 1, 28)
	if choice == "" {
		t.Fatal("no lesson to move to")
	}
	page := a.moveTo(old, url.Values{"date": {date}, "lessonId": {choice}})
	r := a.get(old + "/lesson.pkpass")
	if to := strings.TrimPrefix(page, "/orders/glk/"); r.StatusCode != http.StatusGone || !strings.Contains(r.text("main"), "Запись перенесена: теперь это заказ № "+to) {
		t.Errorf("old pass: %d %q", r.StatusCode, r.text("main"))
	}
	_, _, after := a.passOf(page)
	if !slices.Equal(slices.Sorted(maps.Keys(before)), slices.Sorted(maps.Keys(after))) {
		t.Errorf("serials %v then %v", slices.Sorted(maps.Keys(before)), slices.Sorted(maps.Keys(after)))
	}
}

// Another customer's pass is not found and asks the provider nothing but
// that customer's own orders.
func TestAnotherCustomersPassIsNotFound(t *testing.T) {
	a := newApp(t)
	other := a.newClient()
	a.signIn(other, otherPhone)
	calls := a.sb.AllCalls()
	for _, p := range []string{
		"/orders/aqua/" + sandbox.DemoAquaPaid + "/tickets.pkpasses", "/orders/aqua/" + sandbox.DemoAquaToday + "/ticket.pkpass",
		"/orders/hotel/" + sandbox.DemoHotelPaid + "/voucher.pkpass", "/orders/glk/" + sandbox.DemoLessonConfirmable + "/lesson.pkpass",
		"/orders/GLK/" + sandbox.DemoLessonConfirmable + "/lesson.pkpass",
	} {
		if r := a.getWith(other, p); r.StatusCode != http.StatusNotFound || strings.HasPrefix(r.body, "PK") {
			t.Errorf("%s: %d, want 404", p, r.StatusCode)
		}
	}
	for path, n := range a.sb.AllCalls() {
		if n != calls[path] && !strings.Contains(path, "Orders") && !strings.Contains(path, "ForCurrentClient") {
			t.Errorf("the provider was asked %s", path)
		}
	}
	if r := a.getWith(other, "/orders/aqua/"+sandbox.OtherAqua+"/ticket.pkpass"); r.StatusCode != http.StatusOK {
		t.Errorf("the owner's own pass: %d", r.StatusCode)
	}
	if r := a.getWith(a.newClient(), "/orders/aqua/"+sandbox.DemoAquaPaid+"/tickets.pkpasses"); r.StatusCode != http.StatusSeeOther {
		t.Errorf("signed out: %d, want the way to sign in", r.StatusCode)
	}
}

// Without a certificate (production not configured) no page offers a pass
// and no pass is made.
func TestNoPassesWithoutACertificate(t *testing.T) {
	a := newAppOptions(t, nil, func(o *handlers.Options) { o.Wallet = handlers.Wallet{} })
	a.signIn(a.client, demoPhone)
	page := "/orders/aqua/" + sandbox.DemoAquaPaid
	if n := a.get(page).doc.Find(`[data-action="wallet"]`).Length(); n != 0 {
		t.Error("a pass offered without a certificate")
	}
	if r := a.get(page + "/tickets.pkpasses"); r.StatusCode != http.StatusNotFound {
		t.Errorf("%d, want 404", r.StatusCode)
	}
}

// With the resort's own gateway a pass is a booking's, not the demo's.
func TestPassesOfTheResortSayNoDemo(t *testing.T) {
	a := newAppOptions(t, nil, func(o *handlers.Options) {
		o.Site.SandboxURL = ""
		o.Wallet.MeetingPoint = "у кассы № 2"
	})
	a.signIn(a.client, demoPhone)
	_, _, passes := a.passOf("/orders/glk/" + sandbox.DemoLessonConfirmable)
	for _, p := range passes {
		if body, _ := json.Marshal(p); strings.Contains(string(body), "демо") || strings.Contains(string(body), "Демо") {
			t.Errorf("a demo mark on the resort's pass: %s", body)
		}
		if f := fieldsOf(p, "eventTicket"); f["meet"] != "у кассы № 2" || f["demoMark"] != "" {
			t.Errorf("fields %v", f)
		}
	}
}
