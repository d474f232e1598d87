package handlers_test

import (
	"net/http"
	"strings"
	"testing"

	"lk/gateway/sandbox"
)

// Cancelling with JavaScript off: what will be cancelled, one provider call
// per cancel (two for a paid stay: the refund with it), the notice once, and
// the same form again calls nobody and answers the same.
func TestCancelEveryKind(t *testing.T) {
	a := signedIn(t)
	for _, tc := range []struct {
		kind, id string
		calls    []string
		next     string // where the customer lands: the list, as after every cancel and refund
		notice   string
	}{
		{"glk", sandbox.DemoLessonCancelable, []string{"GLK/cancelRegistration"}, "/orders", "Запись отменена."},
		{"pavilion", sandbox.DemoPavilionCancelOnly, []string{"Rent/cancelPavilionRent"}, "/orders", "Аренда отменена."},
		{"celRoom", sandbox.DemoRoomRent, []string{"CelRooms/cancelCelRoomRent"}, "/orders", "Аренда отменена."},
		{"hotel", sandbox.DemoHotelPaid, []string{"hotel/cancelOrder", "hotel/registerRefund"}, "/orders", "Бронирование отменено."},
		{"hotel", sandbox.DemoHotelUnpaid, []string{"hotel/cancelOrder"}, "/orders", "Бронирование отменено."},
	} {
		t.Run(tc.kind+"/"+tc.id, func(t *testing.T) {
			a.sb.Reset()
			page, action := "/orders/"+tc.kind+"/"+tc.id, "/orders/"+tc.kind+"/"+tc.id+"/cancel"
			if href := a.get(page).doc.Find(`a[data-action="cancel"]`).AttrOr("href", ""); href != action {
				t.Fatalf("the order offers no cancel (%q)", href)
			}
			p := a.get(action)
			if p.StatusCode != http.StatusOK || !strings.Contains(p.text("main"), "Вы уверены, что хотите отменить заказ?") {
				t.Fatalf("GET: %d %q", p.StatusCode, p.text("main"))
			}
			form := p.formValues(action)
			r := a.post(action, form)
			if r.StatusCode != http.StatusSeeOther || r.Header.Get("Location") != tc.next {
				t.Fatalf("POST: %d → %q %s", r.StatusCode, r.Header.Get("Location"), r.text(".notice-err"))
			}
			for _, call := range tc.calls {
				if n := a.sb.AllCalls()[call]; n != 1 {
					t.Errorf("%s called %d times", call, n)
				}
			}
			if tc.kind == "hotel" && len(tc.calls) == 1 && a.sb.AllCalls()["hotel/registerRefund"] != 0 {
				t.Error("a refund registered for an unpaid stay")
			}
			landed := a.get(tc.next)
			if n := landed.text(".notice-ok"); !strings.HasPrefix(n, tc.notice) {
				t.Errorf("notice %q, want %q…", n, tc.notice)
			}
			if st := a.get(page).kv("article", "Статус"); tc.kind == "hotel" && st != "Отменен" {
				t.Errorf("status %q", st)
			}
			again := a.post(action, form)
			if again.StatusCode != http.StatusSeeOther || again.Header.Get("Location") != tc.next {
				t.Errorf("the same form again: %d → %q", again.StatusCode, again.Header.Get("Location"))
			}
			for _, call := range tc.calls {
				if n := a.sb.AllCalls()[call]; n != 1 {
					t.Errorf("after the replay %s called %d times", call, n)
				}
			}
		})
	}
}

// A provider failure on each cancel call: the form again with the agreed text or
// the provider's text and a token that works; nothing is lost.
func TestCancelProviderFailure(t *testing.T) {
	for _, tc := range []struct {
		kind, id, fault, text string
		status                int
	}{
		{"glk", sandbox.DemoLessonCancelable, "GLK/cancelRegistration", "Сервис временно недоступен (sandbox fault)", http.StatusBadGateway},
		{"pavilion", sandbox.DemoPavilionCancelOnly, "Rent/cancelPavilionRent", "Сервис временно недоступен (sandbox fault)", http.StatusBadGateway},
		{"celRoom", sandbox.DemoRoomRent, "CelRooms/cancelCelRoomRent", "Сервис временно недоступен (sandbox fault)", http.StatusBadGateway},
		// A hotel cancel answered with a failed HTTP status says 'Ошибка HTTP'
		// and what is left undone: for a paid stay, the refund.
		{"hotel", sandbox.DemoHotelPaid, "hotel/cancelOrder", "Ошибка HTTP 500. Произошла ошибка при оформлении возврата.", http.StatusBadGateway},
		{"hotel", sandbox.DemoHotelUnpaid, "hotel/cancelOrder", "Ошибка HTTP 500. Не удалось отменить заказ.", http.StatusBadGateway},
		{"hotel", sandbox.DemoHotelPaid, "hotel/registerRefund", "Бронирование отменено, но возврат не оформлен: Сервис временно недоступен (sandbox fault). Позвоните в службу поддержки: +7 (800) 000-00-00.", http.StatusBadGateway},
	} {
		t.Run(tc.fault+"/"+tc.id, func(t *testing.T) {
			a := signedIn(t)
			action := "/orders/" + tc.kind + "/" + tc.id + "/cancel"
			a.sb.SetFault(tc.fault, sandbox.Fault{Status: http.StatusInternalServerError})
			r := a.submit(a.client, action, action, nil)
			if r.StatusCode != tc.status || r.text(".notice-err") != tc.text {
				t.Fatalf("failure: %d %q, want %d %q", r.StatusCode, r.text(".notice-err"), tc.status, tc.text)
			}
			if n := a.sb.AllCalls()[tc.fault]; n != 1 {
				t.Errorf("%s called %d times", tc.fault, n)
			}
			if tc.fault == "hotel/registerRefund" {
				return // the stay is cancelled; see the note in issue-8-refund.md
			}
			a.sb.SetFault(tc.fault, sandbox.Fault{})
			if ok := a.post(action, r.formValues(action)); ok.StatusCode != http.StatusSeeOther {
				t.Errorf("again with the new token: %d %q", ok.StatusCode, ok.text(".notice-err"))
			}
		})
	}
}

// A paid stay offers both a cancel and a refund: each page says, before
// its button, how the two differ for the money. An unpaid one says nothing
// of the kind.
func TestHotelCancelVersusRefund(t *testing.T) {
	a := signedIn(t)
	base := "/orders/hotel/" + sandbox.DemoHotelPaid
	for _, tc := range []struct{ page, button, says string }{
		{base + "/cancel", "Отменить бронирование", "«Оформить возврат» — заявление на возврат"},
		{base + "/refund", "Оформить возврат", "До даты заезда проще «Отменить бронирование»"},
	} {
		r := a.get(tc.page)
		main := r.doc.Find("main")
		html, _ := main.Html()
		note := strings.Index(html, tc.says)
		button := strings.Index(html, ">"+tc.button+"</button>")
		if r.StatusCode != http.StatusOK || note < 0 || button < 0 || note > button {
			t.Errorf("%s: %d, the note at %d, the button at %d", tc.page, r.StatusCode, note, button)
		}
	}
	if r := a.get("/orders/hotel/" + sandbox.DemoHotelUnpaid + "/cancel"); strings.Contains(r.text("main"), "Оформить возврат") {
		t.Errorf("an unpaid stay's cancel speaks of a refund: %q", r.text("main"))
	}
}
