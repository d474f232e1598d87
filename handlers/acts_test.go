package handlers_test

import (
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"lk/gateway"
	"lk/gateway/sandbox"
	"lk/views"
)

// when is how the pages say the app's now: '27.11.2026 в 14:05'.
func (a *app) when() string {
	now := a.clock.Now().In(gateway.ResortLocation())
	return views.Date(now) + " в " + views.Clock(now)
}

// Back after a cancel or a refund: the booking the provider no longer lists
// still opens for its owner (200) and says what became of it and when;
// another customer learns nothing of it.
func TestOrderPageAfterAction(t *testing.T) {
	a := signedIn(t)
	for _, tc := range []struct {
		name, kind, id, action, want string // want: %s is when
	}{
		{"lesson cancel", "glk", sandbox.DemoLessonCancelable, "cancel", "Вы отменили этот заказ %s."},
		{"pavilion refund", "pavilion", sandbox.DemoPavilionRent, "refund", "Вы оформили возврат по этому заказу %s. Деньги на карту вернутся"},
		{"celebration room cancel", "celRoom", sandbox.DemoRoomRent, "cancel", "Вы отменили этот заказ %s."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			page := "/orders/" + tc.kind + "/" + tc.id
			action := page + "/" + tc.action
			var r *resp
			if tc.action == "refund" {
				r = a.submitRefund(a.client, tc.kind, tc.id, nil, nil)
			} else {
				r = a.submit(a.client, action, action, nil)
			}
			if r.StatusCode != http.StatusSeeOther {
				t.Fatalf("POST %s: %d %q", action, r.StatusCode, r.text(".notice-err"))
			}
			a.get(r.Header.Get("Location")) // the notice, once
			tc.want = fmt.Sprintf(tc.want, a.when())
			p := a.get(page)
			if p.StatusCode != http.StatusOK {
				t.Fatalf("GET %s after the %s: %d %q", page, tc.action, p.StatusCode, p.text("main"))
			}
			if got := p.text("[data-done]"); !strings.HasPrefix(got, tc.want) || !strings.Contains(got, "В списке ваших заказов его больше нет.") {
				t.Errorf("the page says %q, want %q…", got, tc.want)
			}
			if strings.Contains(p.text("main"), "Заказ не найден") || p.doc.Find(".notice-err").Length() > 0 {
				t.Errorf("the page still reads as an error: %q", p.text("main"))
			}
			// The action's own page says so too, rather than 'not found'.
			if f := a.get(action); f.StatusCode != http.StatusConflict || !strings.Contains(f.text("main"), tc.want) {
				t.Errorf("GET %s: %d %q", action, f.StatusCode, f.text("main"))
			}

			other := a.newClient()
			a.signIn(other, otherPhone)
			o := a.getWith(other, page)
			if o.StatusCode != http.StatusNotFound || o.doc.Find("[data-done]").Length() > 0 || strings.Contains(o.body, "Вы отменили") || strings.Contains(o.body, "Вы оформили") {
				t.Errorf("another customer, GET %s: %d %q", page, o.StatusCode, o.text("main"))
			}
		})
	}
}

// A form from a second tab on a booking the first tab has cancelled,
// refunded or moved is told exactly that, and the provider is not asked to
// act again.
func TestSecondTabAfterAction(t *testing.T) {
	t.Run("cancel, then cancel", func(t *testing.T) {
		a := signedIn(t)
		action := "/orders/glk/" + sandbox.DemoLessonCancelable + "/cancel"
		second := a.get(action).formValues(action)
		if r := a.submit(a.client, action, action, nil); r.StatusCode != http.StatusSeeOther {
			t.Fatalf("first tab: %d", r.StatusCode)
		}
		r := a.post(action, second)
		if r.StatusCode != http.StatusConflict || !strings.Contains(r.text("main"), "Вы отменили этот заказ "+a.when()+".") {
			t.Errorf("second tab: %d %q", r.StatusCode, r.text("main"))
		}
		if n := a.sb.AllCalls()["GLK/cancelRegistration"]; n != 1 {
			t.Errorf("cancelRegistration called %d times", n)
		}
	})
	t.Run("refund, then refund", func(t *testing.T) {
		a := signedIn(t)
		action := "/orders/pavilion/" + sandbox.DemoPavilionRent + "/refund"
		second := a.get(action)
		if r := a.submitRefund(a.client, "pavilion", sandbox.DemoPavilionRent, nil, nil); r.StatusCode != http.StatusSeeOther {
			t.Fatalf("first tab: %d", r.StatusCode)
		}
		r := a.resubmit(a.client, second, action, nil, nil)
		if r.StatusCode != http.StatusConflict || !strings.Contains(r.text("main"), "Вы оформили возврат по этому заказу "+a.when()+".") {
			t.Errorf("second tab: %d %q", r.StatusCode, r.text("main"))
		}
		if n := a.sb.AllCalls()["Rent/registerRefund"]; n != 1 {
			t.Errorf("registerRefund called %d times", n)
		}
	})
	t.Run("move, then move", func(t *testing.T) {
		a := signedIn(t)
		move := "/orders/glk/" + sandbox.DemoLessonTransferable + "/transfer"
		date, lesson := a.firstChoice(move, "lessonId", 1, 30)
		chosen := url.Values{"date": {date}, "lessonId": {lesson}}
		second := a.get(move).formValues(move)
		r := a.submit(a.client, move, move, chosen)
		if r.StatusCode != http.StatusSeeOther {
			t.Fatalf("move: %d %q", r.StatusCode, r.text(".notice-err, .summary"))
		}
		newID := r.Header.Get("Location")[strings.LastIndex(r.Header.Get("Location"), "/")+1:]
		maps.Copy(second, chosen)
		got := a.post(move, second)
		want := "Вы перенесли этот заказ " + a.when() + ": теперь это заказ № " + newID + "."
		if got.StatusCode != http.StatusConflict || !strings.Contains(got.text("main"), want) {
			t.Errorf("second tab: %d %q, want %q", got.StatusCode, got.text("main"), want)
		}
		if n := a.sb.AllCalls()["GLK/changeLessonPeriod"]; n != 1 {
			t.Errorf("changeLessonPeriod called %d times", n)
		}
	})
}

// The same water-park tickets refunded from a second tab: the refund is
// under way, said as such (409), never blamed on the form.
func TestSecondTabSameTicketsRefund(t *testing.T) {
	a := signedIn(t)
	paid := a.ticketIDs(sandbox.DemoGUID, sandbox.DemoAquaPaid, gateway.TicketPaid)
	if len(paid) < 2 {
		t.Fatalf("the demo order has %d paid tickets, want 2 or more", len(paid))
	}
	action := "/orders/aqua/" + sandbox.DemoAquaPaid + "/refund"
	first, second := a.get(action), a.get(action)
	chosen := url.Values{"tickets": paid[:1]}
	if r := a.resubmit(a.client, first, action, chosen, nil); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("first tab: %d %q", r.StatusCode, r.text("main"))
	}
	a.get("/orders") // the first tab lands, its notice shown
	r := a.resubmit(a.client, second, action, chosen, nil)
	if r.StatusCode != http.StatusConflict {
		t.Fatalf("second tab: %d, want 409\n%s", r.StatusCode, r.text("main"))
	}
	if got := r.text(".notice-err"); !strings.HasPrefix(got, "По этим билетам возврат уже оформлен: № ") {
		t.Errorf("second tab says %q", got)
	}
	if r.doc.Find("#error-summary, #tickets-error").Length() > 0 || strings.Contains(r.text("main"), "Проверьте данные") {
		t.Errorf("the customer is blamed: %q", r.text("main"))
	}
	if n := a.sb.AllCalls()["aqua/registerRefund1C"]; n != 1 {
		t.Errorf("registerRefund1C called %d times", n)
	}
	// A ticket refunded long ago, by whatever way, is said to be so too.
	refunded := a.ticketIDs(sandbox.DemoGUID, sandbox.DemoAquaVIPRefunded, gateway.TicketRefunded)
	if r := a.submitRefund(a.client, "aqua", sandbox.DemoAquaVIPRefunded, url.Values{"tickets": refunded}, nil); r.StatusCode != http.StatusConflict ||
		!strings.HasPrefix(r.text(".notice-err"), "По этим билетам возврат уже оформлен: № ") {
		t.Errorf("a refunded ticket: %d %q", r.StatusCode, r.text(".notice-err"))
	}
	// The form shown again refunds the rest.
	if again := a.resubmit(a.client, r, action, url.Values{"tickets": paid[1:2]}, nil); again.StatusCode != http.StatusSeeOther {
		t.Errorf("the rest: %d %q", again.StatusCode, again.text("main"))
	}
}
