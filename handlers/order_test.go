package handlers_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"lk/gateway"
	"lk/gateway/sandbox"
	"lk/handlers"
	"lk/views"
)

func TestOrderCardsOfEveryKind(t *testing.T) {
	a := signedIn(t)
	reg := a.day(-3) + " 11:23" // the sandbox registers orders three days back at 11:23
	unpaid := rub("3 700 ₽")    // an adult's and a child's ticket on a weekday
	if a.weekend(3) {
		unpaid = rub("4 400 ₽")
	}
	for _, tc := range []struct {
		path, h1 string
		kv       map[string]string
		has      []string // more text the page shows
		doc      string   // the document link, "" when there must be none
	}{
		{
			path: "/orders/glk/" + sandbox.DemoLessonConfirmable, h1: "Горные лыжи",
			kv: map[string]string{
				"Дата оформления": reg, "Занятие": "Групповое занятие, начинающие", "Дата и время": a.day(1) + " 10:00",
				"Инструктор": "Смирнова Анна", "Способ оплаты": "Оплата на сайте", "Итого": rub("2 500 ₽"),
			},
		},
		{
			path: "/orders/GLK/" + sandbox.DemoLessonCancelable, h1: "Сноуборд",
			kv: map[string]string{"Дата и время": a.day(5) + " 16:00", "Инструктор": "Кузнецов Олег", "Итого": rub("2 800 ₽")},
		},
		{
			path: "/orders/pavilion/" + sandbox.DemoPavilionRent, h1: "Беседка №3",
			kv: map[string]string{"Название": "Беседка №3", "Дата": a.day(4), "Время аренды": "12:00–15:00", "Итого": rub("6 000 ₽")},
		},
		{
			path: "/orders/celRoom/" + sandbox.DemoRoomRent, h1: "Банкетный зал «Снежинка»",
			kv: map[string]string{"Название": "Банкетный зал «Снежинка»", "Дата": a.day(6), "Время аренды": "14:00–18:00", "Итого": rub("20 000 ₽")},
		},
		{
			path: "/orders/aqua/" + sandbox.DemoAquaVIPRefunded, h1: "Заказ № 300004",
			kv: map[string]string{
				"Дата оформления": reg, "Время посещения": "VIP дневной 10:00–16:00", "Статус": "Оплачен",
				"К оплате": rub("0 ₽"), "Возвращено": rub("5 200 ₽"), "Итого": rub("8 700 ₽"),
			},
			has: []string{"№ AQ-300004-02 · VIP взрослый (оформлен возврат) · " + rub("5 200 ₽"), "№ AQ-300004-03 · VIP детский · " + rub("3 500 ₽")},
			doc: "/orders/aqua/300004/ticket.pdf",
		},
		{
			path: "/orders/aqua/" + sandbox.DemoAquaUnpaid, h1: "Заказ № 300002",
			kv:  map[string]string{"Дата": a.day(3), "Статус": "Не оплачен", "К оплате": unpaid, "Возвращено": rub("0 ₽"), "Итого": unpaid},
			has: []string{"Взрослый (ожидает оплаты)"},
		},
		{
			path: "/orders/aqua/" + sandbox.DemoAquaCanceled, h1: "Заказ № 300003",
			kv: map[string]string{"Дата": a.day(5), "Статус": "Отменен"},
		},
		{
			path: "/orders/hotel/" + sandbox.DemoHotelPaid, h1: "Заказ № 400001",
			kv: map[string]string{
				"Период проживания": a.day(10) + " 16:00 — " + a.day(13) + " 14:00", "Статус": "Оплачен",
				"Проживание в номерах": views.Money(a.stayRooms(10, 3)), "Дополнительные места": rub("4 500 ₽"), "Дети": rub("7 200 ₽"),
				"Итого": views.Money(a.stayRooms(10, 3) + 4500 + 7200),
			},
			has: []string{"№ 214, Стандарт, двухместный", "Иванова Мария Петровна", "№ 305, Семейный номер", "Иванов Артём Иванович (ребёнок)"},
			doc: "/orders/hotel/400001/voucher.pdf",
		},
		{
			path: "/orders/hotel/" + sandbox.DemoHotelUnpaid, h1: "Заказ № 400002",
			kv:  map[string]string{"Статус": "Не оплачен"},
			doc: "/orders/hotel/400002/voucher.pdf",
		},
		{
			path: "/orders/hotel/" + sandbox.DemoHotelCanceled, h1: "Заказ № 400003",
			kv: map[string]string{"Статус": "Отменен"},
		},
	} {
		t.Run(strings.TrimPrefix(tc.path, "/orders/"), func(t *testing.T) {
			a.sb.Reset()
			r := a.get(tc.path)
			if r.StatusCode != http.StatusOK {
				t.Fatalf("status %d\n%s", r.StatusCode, r.text("main"))
			}
			if total := len(a.sb.AllCalls()); total != 1 {
				t.Errorf("the page made calls to %v, want exactly one order call", a.sb.AllCalls())
			}
			for _, v := range a.sb.AllCalls() {
				if v != 1 {
					t.Errorf("calls %v, want one", a.sb.AllCalls())
				}
			}
			if got := r.text("h1"); got != tc.h1 {
				t.Errorf("h1 %q, want %q", got, tc.h1)
			}
			for k, want := range tc.kv {
				if got := r.kv("article", k); got != want {
					t.Errorf("%s: %q, want %q", k, got, want)
				}
			}
			for _, want := range tc.has {
				if !strings.Contains(r.text("article"), want) {
					t.Errorf("page lacks %q", want)
				}
			}
			links := r.doc.Find(`a[href$=".pdf"]`)
			switch {
			case tc.doc == "" && links.Length() != 0:
				t.Errorf("a document link on an order that must not have one: %s", links.AttrOr("href", ""))
			case tc.doc != "" && links.AttrOr("href", "") != tc.doc:
				t.Errorf("document link %q, want %q", links.AttrOr("href", ""), tc.doc)
			}
			// Every button leads to a working page.
			for _, act := range []string{"transfer", "cancel", "refund"} {
				if href, ok := r.doc.Find(`a[data-action="` + act + `"]`).Attr("href"); ok {
					if p := a.get(href); p.StatusCode != http.StatusOK {
						t.Errorf("%s button → %s: %d", act, href, p.StatusCode)
					}
				}
			}
			if href, ok := r.doc.Find(`a[data-action="refund"]`).Attr("href"); ok {
				if p := a.get(href); p.StatusCode != http.StatusOK || p.text("h1") != "Оформить возврат" {
					t.Errorf("refund button → %s: %d %q", href, p.StatusCode, p.text("h1"))
				}
			}
		})
	}
	if got := a.get("/orders/aqua/300004").text(`a[href$="ticket.pdf"]`); got != "Мой билет" {
		t.Errorf("ticket link %q", got)
	}
	if got := a.get("/orders/hotel/400001").text(`a[href$="voucher.pdf"]`); got != "Мой ваучер" {
		t.Errorf("voucher link %q", got)
	}
}

func TestOrderNotFound(t *testing.T) {
	a := signedIn(t)
	for _, p := range []string{"/orders/bowling/1", "/orders/pavilion/x%22y"} {
		r := a.get(p)
		if r.StatusCode != http.StatusNotFound || r.text("h1") != "Страница не найдена" {
			t.Errorf("%s: %d %q, want the 404 page", p, r.StatusCode, r.text("h1"))
		}
	}
	// Ids the provider refuses: 404, and its own text replaces the order.
	for _, p := range []string{"/orders/aqua/999999", "/orders/glk/999999", "/orders/hotel/" + sandbox.DemoAquaPaid} {
		r := a.get(p)
		if r.StatusCode != http.StatusNotFound || r.text(".notice-err") != "Заказ не найден" || r.doc.Find("article").Length() != 0 {
			t.Errorf("%s: %d %q, want 404 with the provider's text", p, r.StatusCode, r.text(".notice-err"))
		}
	}
}

// The provider refusing one of the customer's own orders: its message, not
// a generic page.
func TestOrderRefusedByProvider(t *testing.T) {
	a := signedIn(t)
	a.sb.SetFault("aqua/getAquaOrders", sandbox.Fault{Status: http.StatusBadRequest})
	r := a.get("/orders/aqua/" + sandbox.DemoAquaPaid)
	if r.StatusCode != http.StatusNotFound || r.text(".notice-err") != "Сервис временно недоступен (sandbox fault)" {
		t.Errorf("%d %q, want 404 with the provider's message", r.StatusCode, r.text(".notice-err"))
	}
	if r.doc.Find("article").Length() != 0 {
		t.Error("an order shown although the provider refused it")
	}
}

func TestOtherCustomersOrdersAreNotFound(t *testing.T) {
	a := newApp(t)
	other := a.newClient()
	a.signIn(other, otherPhone)
	for _, p := range []string{
		"/orders/glk/" + sandbox.DemoLessonConfirmable, "/orders/GLK/" + sandbox.DemoLessonConfirmable,
		"/orders/pavilion/" + sandbox.DemoPavilionRent, "/orders/celRoom/" + sandbox.DemoRoomRent,
		"/orders/aqua/" + sandbox.DemoAquaPaid, "/orders/hotel/" + sandbox.DemoHotelPaid,
		"/orders/aqua/" + sandbox.DemoAquaPaid + "/ticket.pdf", "/orders/hotel/" + sandbox.DemoHotelPaid + "/voucher.pdf",
	} {
		r := a.getWith(other, p)
		if r.StatusCode != http.StatusNotFound || strings.Contains(r.body, "Иванов") || strings.HasPrefix(r.body, "%PDF") {
			t.Errorf("%s: %d, want 404 without the order", p, r.StatusCode)
		}
	}
	r := a.postWith(other, "/orders/glk/"+sandbox.DemoLessonConfirmable+"/confirm", url.Values{}, nil)
	if r.StatusCode != http.StatusNotFound {
		t.Errorf("confirm of another's lesson: %d, want 404", r.StatusCode)
	}
	if n := a.sb.AllCalls()["GLK/confirmLesson"]; n != 0 {
		t.Errorf("the provider was asked to confirm another's lesson %d times", n)
	}
	// The other customer's own orders open.
	for _, p := range []string{"/orders/glk/" + sandbox.OtherLesson, "/orders/aqua/" + sandbox.OtherAqua} {
		if r := a.getWith(other, p); r.StatusCode != http.StatusOK {
			t.Errorf("%s: %d for its owner", p, r.StatusCode)
		}
	}
	// And the demo customer's lesson is still unconfirmed.
	a.signIn(a.client, demoPhone)
	if a.get("/orders/glk/"+sandbox.DemoLessonConfirmable).doc.Find(`form[action$="/confirm"]`).Length() != 1 {
		t.Error("the lesson lost its confirm button")
	}
}

func TestDocuments(t *testing.T) {
	a := signedIn(t)
	for _, tc := range []struct{ path, name string }{
		{"/orders/aqua/" + sandbox.DemoAquaPaid + "/ticket.pdf", "aqua-300001.pdf"},
		{"/orders/hotel/" + sandbox.DemoHotelPaid + "/voucher.pdf", "hotel-400001.pdf"},
	} {
		r := a.get(tc.path)
		if r.StatusCode != http.StatusOK {
			t.Fatalf("%s: %d\n%s", tc.path, r.StatusCode, r.text("main"))
		}
		if ct := r.Header.Get("Content-Type"); ct != "application/pdf" {
			t.Errorf("%s: content type %q", tc.path, ct)
		}
		if cd := r.Header.Get("Content-Disposition"); cd != `attachment; filename="`+tc.name+`"` {
			t.Errorf("%s: disposition %q", tc.path, cd)
		}
		if !strings.HasPrefix(r.body, "%PDF") {
			t.Errorf("%s: not a PDF", tc.path)
		}
	}
	for _, tc := range []struct {
		path   string
		status int
	}{
		{"/orders/aqua/" + sandbox.DemoAquaCanceled + "/ticket.pdf", http.StatusConflict},
		{"/orders/aqua/" + sandbox.DemoAquaUnpaid + "/ticket.pdf", http.StatusConflict},
		{"/orders/hotel/" + sandbox.DemoHotelCanceled + "/voucher.pdf", http.StatusConflict},
		{"/orders/aqua/" + sandbox.DemoAquaPaid + "/voucher.pdf", http.StatusNotFound},
		{"/orders/glk/" + sandbox.DemoLessonConfirmable + "/ticket.pdf", http.StatusNotFound},
		{"/orders/aqua/999999/ticket.pdf", http.StatusNotFound},
	} {
		a.sb.Reset()
		r := a.get(tc.path)
		if r.StatusCode != tc.status || strings.HasPrefix(r.body, "%PDF") {
			t.Errorf("%s: %d, want %d without a PDF", tc.path, r.StatusCode, tc.status)
		}
		if !strings.Contains(r.Header.Get("Content-Type"), "text/html") || r.text("h1") == "" {
			t.Errorf("%s: no Russian page", tc.path)
		}
		if n := a.sb.AllCalls()["aqua/generatePdf"] + a.sb.AllCalls()["hotel/generatePdf"]; n != 0 {
			t.Errorf("%s: the PDF was asked for", tc.path)
		}
	}
}

func TestOrderProviderFailure(t *testing.T) {
	a := signedIn(t)
	a.sb.SetFault("hotel/getHotelOrders", sandbox.Fault{Status: http.StatusInternalServerError, Malformed: true})
	r := a.get("/orders/hotel/" + sandbox.DemoHotelPaid)
	if r.StatusCode != http.StatusServiceUnavailable && r.StatusCode != http.StatusBadGateway {
		t.Errorf("status %d, want 502 or 503", r.StatusCode)
	}
	if got := r.text(".notice-err"); got != "Ошибка при получении информации о заказах в отеле" {
		t.Errorf("hotel failure text %q", got)
	}
	if r.doc.Find("article").Length() != 0 {
		t.Error("an order shown although it failed to load")
	}
	a.sb.Reset()
	a.sb.SetFault("aqua/getAquaOrders", sandbox.Fault{Status: http.StatusInternalServerError})
	r = a.get("/orders/aqua/" + sandbox.DemoAquaPaid)
	if r.StatusCode != http.StatusServiceUnavailable && r.StatusCode != http.StatusBadGateway {
		t.Errorf("status %d, want 502 or 503", r.StatusCode)
	}
	if got := r.text(".notice-err"); got != "Сервис временно недоступен (sandbox fault)" {
		t.Errorf("provider message %q", got)
	}
}

func TestConfirmLesson(t *testing.T) {
	a := signedIn(t)
	id := sandbox.DemoLessonConfirmable
	action := "/orders/glk/" + id + "/confirm"
	sel := `form[method="post"][action="` + action + `"] button`
	for _, p := range []string{"/", "/orders", "/orders/glk/" + id} {
		if got := a.get(p).text(sel); got != "Подтвердить запись" {
			t.Errorf("%s: confirm button %q", p, got)
		}
	}
	if a.get("/orders/glk/"+sandbox.DemoLessonChild).doc.Find(`form[action$="/confirm"]`).Length() != 0 {
		t.Error("confirm offered on a lesson without canConfirm")
	}
	if a.get("/orders").doc.Find(`section[aria-labelledby="history-h"] form[action$="/confirm"]`).Length() != 0 {
		t.Error("confirm offered in the history")
	}

	r := a.submit(a.client, "/orders/glk/"+id, action, nil)
	if r.StatusCode != http.StatusSeeOther || r.Header.Get("Location") != "/orders/glk/"+id {
		t.Fatalf("confirm: %d → %q\n%s", r.StatusCode, r.Header.Get("Location"), r.text("main"))
	}
	if n := a.sb.AllCalls()["GLK/confirmLesson"]; n != 1 {
		t.Errorf("GLK/confirmLesson called %d times", n)
	}
	r = a.get(r.Header.Get("Location"))
	if got := r.text(".notice-ok"); got != "Запись подтверждена" {
		t.Errorf("notice %q", got)
	}
	if got := a.get(r.Request.URL.Path).text(".notice-ok"); got != "" {
		t.Errorf("the notice is shown again: %q", got)
	}
	if r.doc.Find(`form[action$="/confirm"]`).Length() != 0 {
		t.Error("the button is still there after confirming")
	}
	if a.get("/orders").doc.Find(`form[action="`+action+`"]`).Length() != 0 {
		t.Error("the list still offers to confirm")
	}
	// Again: the server checks canConfirm itself.
	r = a.post(action, url.Values{"token": {"forged"}})
	if r.StatusCode != http.StatusConflict || a.sb.AllCalls()["GLK/confirmLesson"] != 1 {
		t.Errorf("second confirm: %d, provider calls %d", r.StatusCode, a.sb.AllCalls()["GLK/confirmLesson"])
	}
	// Only lessons are confirmed.
	if r := a.post("/orders/aqua/"+sandbox.DemoAquaPaid+"/confirm", url.Values{}); r.StatusCode != http.StatusNotFound {
		t.Errorf("confirm of a water-park order: %d", r.StatusCode)
	}

	// Pressed on a list, the customer stays there (the page reloads).
	for _, list := range []string{"/", "/orders"} {
		t.Run("from "+list, func(t *testing.T) {
			a := signedIn(t)
			r := a.submit(a.client, list, action, nil)
			if r.StatusCode != http.StatusSeeOther || r.Header.Get("Location") != list {
				t.Fatalf("confirm on %s: %d → %q", list, r.StatusCode, r.Header.Get("Location"))
			}
			if got := a.get(list).text(".notice-ok"); got != "Запись подтверждена" {
				t.Errorf("notice on %s: %q", list, got)
			}
		})
	}
	// Nowhere else, whatever the form says.
	b := signedIn(t)
	form := b.get("/").formValues(action)
	form.Set("back", "https://evil.example/")
	if r := b.post(action, form); r.Header.Get("Location") != "/orders/glk/"+id {
		t.Errorf("back to a foreign place: %q", r.Header.Get("Location"))
	}

	// A provider failure.
	a.sb.SetFault("GLK/confirmLesson", sandbox.Fault{Status: http.StatusInternalServerError})
	r = a.submit(a.client, "/", "/orders/glk/"+sandbox.DemoLessonTransferable+"/confirm", nil)
	if r.StatusCode != http.StatusBadGateway && r.StatusCode != http.StatusConflict {
		t.Errorf("failed confirm: status %d", r.StatusCode)
	}
	if got := r.text(".notice-err"); got != "Не удалось подтвердить запись" {
		t.Errorf("failed confirm: %q", got)
	}
	if got := r.text(`form[action$="/confirm"] button`); got != "Подтвердить запись" {
		t.Error("the button is gone after a failure")
	}
}

// weekend tells whether today+off, on the app's clock, is a Saturday or a
// Sunday, when the water park charges its weekend prices.
func (a *app) weekend(off int) bool {
	return gateway.IsWeekend(a.clock.Now().In(gateway.ResortLocation()).AddDate(0, 0, off))
}

// stayRooms is what the sandbox charges a standard and a family room for the
// nights from today+off: Friday and Saturday nights are dearer.
func (a *app) stayRooms(off, nights int) float64 {
	var sum float64
	for i := range nights {
		switch a.clock.Now().In(gateway.ResortLocation()).AddDate(0, 0, off+i).Weekday() {
		case time.Friday, time.Saturday:
			sum += 8000 + 12000
		default:
			sum += 6500 + 9800
		}
	}
	return sum
}

// transferOff is the provider with lesson transfers switched off once off
// is set.
type transferOff struct {
	handlers.Provider
	off *atomic.Bool
}

func (p transferOff) LessonOrder(ctx context.Context, guid, id string) (gateway.LessonOrder, error) {
	o, err := p.Provider.LessonOrder(ctx, guid, id)
	if p.off.Load() {
		o.CanTransfer = false
	}
	return o, err
}

// 'уже' only where the order once allowed the action: a form posted that
// was shown while it did. An order opened that does not allow it is told
// so without 'уже'.
func TestNotAllowedSaysAlreadyOnlyWhenItOnceWas(t *testing.T) {
	off := &atomic.Bool{}
	a := newAppWith(t, func(p handlers.Provider) handlers.Provider { return transferOff{p, off} })
	a.signIn(a.client, demoPhone)
	never := a.get("/orders/pavilion/" + sandbox.DemoPavilionCancelOnly + "/transfer")
	if never.StatusCode != http.StatusConflict || !strings.Contains(never.text("main"), "Этот заказ нельзя перенести.") {
		t.Errorf("never movable: %d %q", never.StatusCode, never.text(".notice-err"))
	}
	page := "/orders/glk/" + sandbox.DemoLessonTransferable + "/transfer"
	date, lesson := a.firstChoice(page, "lessonId", 1, 28)
	form := a.get(page + "?date=" + date).formValues(page)
	form.Set("lessonId", lesson)
	off.Store(true)
	r := a.post(page, form)
	if r.StatusCode != http.StatusConflict || !strings.Contains(r.text("main"), "Этот заказ уже нельзя перенести.") {
		t.Errorf("no longer movable: %d %q", r.StatusCode, r.text(".notice-err"))
	}
	if a.sb.AllCalls()["GLK/changeLessonPeriod"] != 0 {
		t.Error("the provider was asked to move")
	}
}

// Where an order offers two buttons that give the money back, the page says
// beside them, one sentence each, what each does with the money and the
// booking; where it offers one or none, it says nothing.
func TestOrderSaysWhichMoneyBackButton(t *testing.T) {
	a := signedIn(t)
	// The page and its cancel button's label, "" when it offers no pair.
	pairs := map[string]string{
		"/orders/pavilion/" + sandbox.DemoPavilionRent: "Отменить аренду",
		"/orders/celRoom/" + sandbox.DemoRoomRent:      "Отменить аренду",
		"/orders/hotel/" + sandbox.DemoHotelPaid:       "Отменить бронирование",
		"/orders/glk/" + sandbox.DemoLessonCancelable:  "",
		"/orders/aqua/" + sandbox.DemoAquaPaid:         "",
		"/orders/hotel/" + sandbox.DemoHotelCanceled:   "",
	}
	for path, cancel := range pairs {
		r := a.get(path)
		notes := r.doc.Find("article .actions + ul#money-back li")
		if want := map[bool]int{true: 2}[cancel != ""]; notes.Length() != want {
			t.Errorf("%s: %d sentences beside the buttons, want %d", path, notes.Length(), want)
			continue
		}
		if cancel == "" {
			continue
		}
		first, second := notes.Eq(0).Text(), notes.Eq(1).Text()
		if !strings.HasPrefix(first, "«"+cancel+"»") || !strings.HasPrefix(second, "«Оформить возврат»") {
			t.Errorf("%s: %q / %q", path, first, second)
		}
		for _, n := range []string{first, second} {
			if !strings.Contains(n, "бронь") || !strings.Contains(n, "на карту") || strings.Count(strings.TrimSuffix(n, "."), ". ") > 0 {
				t.Errorf("%s: %q does not say in one sentence what happens to the booking and the money", path, n)
			}
		}
	}
}

// The buttons come right after the order's summary: before the tickets'
// codes and the guests, which may fill screens on a phone.
func TestOrderButtonsFollowTheSummary(t *testing.T) {
	a := signedIn(t)
	for _, path := range []string{"/orders/aqua/" + sandbox.DemoAquaPaid, "/orders/hotel/" + sandbox.DemoHotelPaid} {
		r := a.get(path)
		next := r.doc.Find("article > dl.kv").Next()
		if !next.Is("div.actions") || next.Find("[data-action]").Length() < 2 {
			t.Errorf("%s: after the summary comes %q", path, goquerySummary(next))
		}
		if r.doc.Find("article .actions ~ ul.tickets, article .actions ~ h2").Length() == 0 {
			t.Errorf("%s: the tickets or guests are not below the buttons", path)
		}
	}
}

func goquerySummary(s interface{ Text() string }) string {
	t := strings.Join(strings.Fields(s.Text()), " ")
	if len(t) > 80 {
		t = t[:80]
	}
	return t
}
