package handlers_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"lk/gateway"
	"lk/gateway/sandbox"
	"lk/handlers"
	"lk/store"
)

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

// postAll posts every form at once; multipart when files is not nil.
func (a *app) postAll(post string, forms []url.Values, multipart bool) []*resp {
	out := make([]*resp, len(forms))
	var wg sync.WaitGroup
	for i, f := range forms {
		wg.Go(func() {
			if multipart {
				out[i] = a.postFiles(a.client, post, f, nil)
			} else {
				out[i] = a.postWith(a.client, post, f, nil)
			}
		})
	}
	wg.Wait()
	return out
}

// 30 forms of one order, each with its own token, posted at once (tabs, a
// form reloaded): one action reaches the provider, for a cancel, a refund
// and a water-park transfer. Every answer is a Russian page or the first
// outcome.
func TestOneActionPerOrder(t *testing.T) {
	const n = 30
	a := signedIn(t)
	paid := a.ticketIDs(sandbox.DemoGUID, sandbox.DemoAquaPaid, gateway.TicketPaid)[:1]
	transfer := "/orders/aqua/" + sandbox.DemoAquaPaid + "/transfer"
	date, session := a.firstChoice(transfer, "sessionId", 1, 30)
	cases := []struct {
		name, page, action, call string
		set                      url.Values
		multipart                bool
	}{
		{"hotel cancel", "/orders/hotel/" + sandbox.DemoHotelPaid + "/cancel", "/orders/hotel/" + sandbox.DemoHotelPaid + "/cancel", "hotel/cancelOrder", nil, false},
		{"aqua transfer", transfer + "?date=" + date, transfer, "aqua/transferTicket", url.Values{"date": {date}, "sessionId": {session}}, false},
		{"aqua refund", "/orders/aqua/" + sandbox.DemoAquaPaid + "/refund", "/orders/aqua/" + sandbox.DemoAquaPaid + "/refund", "aqua/registerRefund1C", url.Values{"tickets": paid}, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			a.sb.Reset()
			forms, post := a.freshForms(tc.page, tc.action, n, tc.set)
			a.sb.SetFault(tc.call, sandbox.Fault{Delay: 100 * time.Millisecond, Times: 1})
			answers := a.postAll(post, forms, tc.multipart)
			if got := a.sb.Calls(tc.call); got != 1 {
				t.Errorf("the provider got %d calls", got)
			}
			ok := 0
			for i, r := range answers {
				switch {
				case r.StatusCode == http.StatusSeeOther:
					ok++
				case r.StatusCode == http.StatusConflict && strings.TrimSpace(r.text(".notice-err")) != "":
				default:
					t.Errorf("answer %d: %d %q", i, r.StatusCode, r.text("main"))
				}
			}
			if ok == 0 {
				t.Error("no form succeeded")
			}
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
	if n := a.sb.Calls("hotel/cancelOrder"); n != 0 {
		t.Fatalf("the provider was called %d times", n)
	}
	a.clock.Add(31 * time.Second)
	r = a.postWith(a.client, post, forms[1], nil)
	if r.StatusCode != http.StatusSeeOther || a.sb.Calls("hotel/cancelOrder") != 1 {
		t.Fatalf("after the lease: %d, calls %d: %q", r.StatusCode, a.sb.Calls("hotel/cancelOrder"), r.text("main"))
	}
}
