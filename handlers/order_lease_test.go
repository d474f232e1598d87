package handlers_test

import (
	"context"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"lk/gateway"
	"lk/gateway/sandbox"
	"lk/handlers"
	"lk/store"
	"lk/store/redistest"
)

var cyrillicText = regexp.MustCompile(`\p{Cyrillic}{4,}`)

// freshForms opens the form page n times (n tabs, a form reloaded), each
// with its own token, and gives the forms for action.
func (a *app) freshForms(page, action string, n int, set url.Values) (forms []url.Values, post string) {
	a.t.Helper()
	for range n {
		p := a.get(page)
		f := p.browserForm(action)
		if f.Get("token") == "" {
			a.t.Fatalf("%s: no form for %s (%d)", page, action, p.StatusCode)
		}
		for k, v := range set {
			f[k] = v
		}
		forms, post = append(forms, f), p.formAction(action)
	}
	return forms, post
}

// actionCase is an action on an order: the page its form is on, the
// form's action, the provider's call it makes, what the customer fills in,
// the order's own page, and whether the form is sent with files.
type actionCase struct {
	name, page, action, call, order string
	set                             url.Values
	multipart                       bool
}

// send posts the form f of tc to post, as the browser would.
func (tc actionCase) send(a *app, post string, f url.Values) *resp {
	if tc.multipart {
		return a.postFiles(a.client, post, f, nil)
	}
	return a.postWith(a.client, post, f, nil)
}

// oneActionCases are a cancel, a water-park transfer and a water-park
// refund of the demo customer's orders.
func (a *app) oneActionCases() []actionCase {
	a.t.Helper()
	paid := a.ticketIDs(sandbox.DemoGUID, sandbox.DemoAquaPaid, gateway.TicketPaid)[:1]
	transfer := "/orders/aqua/" + sandbox.DemoAquaPaid + "/transfer"
	date, session := a.firstChoice(transfer, "sessionId", 1, 30)
	return []actionCase{
		{name: "hotel cancel", page: "/orders/hotel/" + sandbox.DemoHotelPaid + "/cancel", action: "/orders/hotel/" + sandbox.DemoHotelPaid + "/cancel", call: "hotel/cancelOrder"},
		{name: "aqua transfer", page: transfer + "?date=" + date, action: transfer, call: "aqua/transferTicket", set: url.Values{"date": {date}, "sessionId": {session}}},
		{name: "aqua refund", page: "/orders/aqua/" + sandbox.DemoAquaPaid + "/refund", action: "/orders/aqua/" + sandbox.DemoAquaPaid + "/refund", call: "aqua/registerRefund1C", set: url.Values{"tickets": paid}, multipart: true},
	}
}

// oneAction sends n fresh forms of tc at once (tabs, a form reloaded) with
// send, while the provider takes its time over the first: one reaches the
// provider, and every answer is the first outcome or a Russian page.
func (a *app) oneAction(t *testing.T, tc actionCase, n int, send func(i int, post string, f url.Values) *resp) {
	t.Helper()
	a.sb.Reset()
	forms, post := a.freshForms(tc.page, tc.action, n, tc.set)
	a.sb.SetFault(tc.call, sandbox.Fault{Delay: 100 * time.Millisecond, Times: 1})
	answers := atOnce(n, func(i int) *resp { return send(i, post, forms[i]) })
	if got := a.sb.AllCalls()[tc.call]; got != 1 {
		t.Errorf("the provider got %d calls", got)
	}
	ok := 0
	for i, r := range answers {
		switch {
		case r.StatusCode == http.StatusSeeOther && strings.HasPrefix(r.Header.Get("Location"), "/orders"):
			ok++
		// A tab whose form is checked after the first changed the
		// order is told why it cannot, in Russian, without a call.
		case (r.StatusCode == http.StatusConflict || r.StatusCode == http.StatusUnprocessableEntity) &&
			cyrillicText.MatchString(r.text(".notice-err, #error-summary")):
		default:
			t.Errorf("answer %d: %d %q %.200q", i, r.StatusCode, r.Header.Get("Location"), r.text("main"))
		}
	}
	if ok == 0 {
		t.Error("no form succeeded")
	}
}

// 30 forms of one order, each with its own token, posted at once: one
// action reaches the provider, for a cancel, a refund and a water-park
// transfer.
func TestOneActionPerOrder(t *testing.T) {
	a := signedIn(t)
	for _, tc := range a.oneActionCases() {
		t.Run(tc.name, func(t *testing.T) {
			a.oneAction(t, tc, 30, func(_ int, post string, f url.Values) *resp { return tc.send(a, post, f) })
		})
	}
}

// Two instances on one Redis: 30 fresh forms of one order split between
// them reach the provider once, for a cancel and a water-park transfer.
func TestOneActionPerOrderAcrossInstances(t *testing.T) {
	rs := redistest.Start(t, redistest.Volatile...).Open()
	var opts handlers.Options
	a := newAppOptions(t, nil, func(o *handlers.Options) {
		o.Once, o.Leases = rs, rs.Leases()
		opts = *o
	}, gateway.WithRetries(0))
	a.signIn(a.client, demoPhone)
	second := a.instance(opts)
	for _, tc := range a.oneActionCases()[:2] {
		t.Run(tc.name, func(t *testing.T) {
			a.oneAction(t, tc, 30, func(i int, post string, f url.Values) *resp {
				base := a.srv.URL
				if i%2 == 1 {
					base = second
				}
				return a.postTo(a.client, base, post, f, nil)
			})
		})
	}
}

// A lease left by an instance that crashed during the provider call holds
// the order only for the lease's time (the provider's deadline and a
// margin, under a minute): meanwhile a form is told in Russian that the
// order is being changed, with no provider call; after it, the form acts.
func TestCrashedLeaseEnds(t *testing.T) {
	var leases store.Leases
	a := newAppOptions(t, nil, func(o *handlers.Options) {
		leases = store.NewMemoryLeases(o.Now)
		o.Leases = leases
	}, gateway.WithRetries(0))
	a.signIn(a.client, demoPhone)
	page := "/orders/hotel/" + sandbox.DemoHotelPaid + "/cancel"
	// What a crashed instance leaves: the order's lease, taken for a
	// cancel whose form's outcome never comes.
	if ok, _, _ := leases.Take(context.Background(), "order:hotel:"+sandbox.DemoHotelPaid, "cancel action:crashed", 30*time.Second); !ok {
		t.Fatal("lease not taken")
	}
	forms, post := a.freshForms(page, page, 2, nil)
	a.sb.Reset()
	r := a.postWith(a.client, post, forms[0], nil)
	if r.StatusCode != http.StatusConflict || !strings.Contains(r.text(".notice-err"), "С этим заказом сейчас выполняется другое действие") {
		t.Fatalf("while the lease lasts: %d %q", r.StatusCode, r.text(".notice-err"))
	}
	if n := a.sb.AllCalls()["hotel/cancelOrder"]; n != 0 {
		t.Fatalf("the provider was called %d times", n)
	}
	a.clock.Add(31 * time.Second)
	r = a.postWith(a.client, post, forms[1], nil)
	if r.StatusCode != http.StatusSeeOther || a.sb.AllCalls()["hotel/cancelOrder"] != 1 {
		t.Fatalf("after the lease: %d, calls %d: %q", r.StatusCode, a.sb.AllCalls()["hotel/cancelOrder"], r.text("main"))
	}
}

// One instance without Redis keeps the forms' tokens and outcomes in its
// data folder: a form that cancelled before a restart, sent again after
// it, gets its first outcome and reaches the provider no more.
func TestUsedFormOutlivesARestart(t *testing.T) {
	path := t.TempDir() + "/action-outcomes"
	var opts handlers.Options
	var first *store.FileOnce
	a := newAppOptions(t, nil, func(o *handlers.Options) {
		var err error
		if first, err = store.OpenFileOnce(path, o.Now); err != nil {
			t.Fatal(err)
		}
		o.Once = first
		opts = *o
	}, gateway.WithRetries(0))
	a.signIn(a.client, demoPhone)
	page := "/orders/hotel/" + sandbox.DemoHotelPaid + "/cancel"
	forms, post := a.freshForms(page, page, 1, nil)
	a.sb.Reset()
	r := a.postWith(a.client, post, forms[0], nil)
	if r.StatusCode != http.StatusSeeOther {
		t.Fatalf("cancel: %d %q", r.StatusCode, r.text("main"))
	}
	where := r.Header.Get("Location")
	first.Close() // the instance stops

	again, err := store.OpenFileOnce(path, opts.Now)
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	opts.Once = again
	r = a.postTo(a.client, a.instance(opts), post, forms[0], nil)
	if r.StatusCode != http.StatusSeeOther || r.Header.Get("Location") != where || a.sb.AllCalls()["hotel/cancelOrder"] != 1 {
		t.Errorf("after the restart: %d %q, calls %d", r.StatusCode, r.Header.Get("Location"), a.sb.AllCalls()["hotel/cancelOrder"])
	}
}

// A double click on a rent move: the second POST of the same form arrives
// while the first runs or after it moved the rent to a new id. Every
// answer is the first outcome, the redirect to the moved rent, never a 404
// or a 422 about the old rent; 10 rounds of it, each on the rent the last
// one moved, all land on the moved rent with one provider call each.
func TestDoubleClickOnRentMove(t *testing.T) {
	rc := rentCases[0]
	a := signedIn(t)
	id := rc.id
	for round := range 10 {
		action := "/orders/" + rc.kind + "/" + id + "/transfer"
		rcNow := rentCase{kind: rc.kind, id: id, change: rc.change, hours: rc.hours}
		d := findSlotDay(t, a, rcNow)
		p := a.get(action + "?date=" + d.date)
		form := p.formValues(action)
		form.Set("date", d.date)
		form.Set("from", d.freeFrom)
		form.Set("to", plus(d.freeFrom, rc.hours))
		a.sb.Reset()
		clicks := 2
		if round == 0 {
			clicks = 20 // a customer pressing again and again
		}
		answers := atOnce(clicks, func(int) *resp { return a.postWith(a.client, action, form, nil) })
		if n := a.sb.AllCalls()[rc.change]; n != 1 {
			t.Errorf("round %d: the provider got %d moves", round, n)
		}
		next := ""
		for i, r := range answers {
			loc := r.Header.Get("Location")
			if r.StatusCode != http.StatusSeeOther || !strings.HasPrefix(loc, "/orders/"+rc.kind+"/") {
				t.Fatalf("round %d, click %d: %d %q %q", round, i, r.StatusCode, loc, r.text("main"))
			}
			if next != "" && loc != next {
				t.Fatalf("round %d: clicks landed on %q and %q", round, next, loc)
			}
			next = loc
		}
		if r := a.get(next); r.StatusCode != http.StatusOK {
			t.Fatalf("round %d: the moved rent %s: %d", round, next, r.StatusCode)
		}
		id = strings.TrimPrefix(next, "/orders/"+rc.kind+"/")
	}
}

// When the provider does not answer an action in time, the customer is
// told that it may have been done, on the order as fetched afresh, not on
// the form with a new token; the same form again says the same and calls
// nobody.
func TestActionTimeoutSaysCheckTheOrder(t *testing.T) {
	const timedOutText = "Ответ не пришёл вовремя: возможно, действие уже выполнено. Проверьте заказ, прежде чем повторять."
	a := newAppWithClient(t, gateway.WithRetries(0), gateway.WithTimeouts(time.Second, 300*time.Millisecond))
	a.signIn(a.client, demoPhone)
	transfer := "/orders/aqua/" + sandbox.DemoAquaPaid + "/transfer"
	date, session := a.firstChoice(transfer, "sessionId", 1, 30)
	cases := []actionCase{
		{name: "confirm", page: "/orders/glk/" + sandbox.DemoLessonConfirmable, action: "/orders/glk/" + sandbox.DemoLessonConfirmable + "/confirm", call: "GLK/confirmLesson", order: "/orders/glk/" + sandbox.DemoLessonConfirmable},
		{name: "cancel", page: "/orders/hotel/" + sandbox.DemoHotelPaid + "/cancel", action: "/orders/hotel/" + sandbox.DemoHotelPaid + "/cancel", call: "hotel/cancelOrder", order: "/orders/hotel/" + sandbox.DemoHotelPaid},
		{name: "transfer", page: transfer + "?date=" + date, action: transfer, call: "aqua/transferTicket", order: "/orders/aqua/" + sandbox.DemoAquaPaid, set: url.Values{"date": {date}, "sessionId": {session}}},
		{name: "refund", page: "/orders/pavilion/" + sandbox.DemoPavilionRent + "/refund", action: "/orders/pavilion/" + sandbox.DemoPavilionRent + "/refund", call: "Rent/registerRefund", order: "/orders/pavilion/" + sandbox.DemoPavilionRent, multipart: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			a.sb.Reset()
			a.sb.SetFault(tc.call, sandbox.Fault{Delay: 12 * time.Second})
			forms, post := a.freshForms(tc.page, tc.action, 1, tc.set)
			send := func() *resp { return tc.send(a, post, forms[0]) }
			r := send()
			if got := r.text(".notice-err"); got != timedOutText {
				t.Errorf("%d %q", r.StatusCode, got)
			}
			if r.doc.Find(`form[action^="`+tc.action+`"]`).Length() != 0 && tc.name != "confirm" {
				t.Error("the form is shown again to be sent blindly")
			}
			if r.StatusCode != http.StatusGatewayTimeout || r.doc.Find(`a[href="`+tc.order+`/ics"], a[href^="`+tc.order+`/"], form[action^="`+tc.order+`/"]`).Length() == 0 && tc.name != "refund" {
				t.Errorf("not the order's page: %d %.300q", r.StatusCode, r.text("main"))
			}
			calls := a.sb.AllCalls()[tc.call]
			r = send()
			if got := r.text(".notice-err"); got != timedOutText || a.sb.AllCalls()[tc.call] != calls {
				t.Errorf("the same form again: %d %q, calls %d → %d", r.StatusCode, got, calls, a.sb.AllCalls()[tc.call])
			}
		})
	}
}
