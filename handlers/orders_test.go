package handlers_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"lk/gateway/sandbox"
	"lk/views"
)

// orderCalls are the provider paths of the five order lists.
var orderCalls = []string{
	"GLK/getTimetableForCurrentClient",
	"Rent/getPavilionRentTimetableForCurrentClient",
	"aqua/getAquaOrders",
	"hotel/getHotelOrders",
	"CelRooms/getCelRoomsTimetableForCurrentClient",
}

func TestHomeGreetsAndShowsPersonalData(t *testing.T) {
	a := signedIn(t)
	a.sb.Reset()
	r := a.get("/")
	if r.StatusCode != http.StatusOK {
		t.Fatalf("status %d\n%s", r.StatusCode, r.body)
	}
	if got := r.text("h1"); got != "Здравствуйте, Иван" {
		t.Errorf("h1 %q", got)
	}
	for key, want := range map[string]string{
		"ФИО": "Иванов Иван Иванович", "Телефон": "+7 (900) 000-00-00", "Email": "ivanov@example.ru",
		"Дата рождения": "15.03.1985", "Пол": "Мужской",
	} {
		if got := r.kv("section", key); got != want {
			t.Errorf("%s: %q, want %q", key, got, want)
		}
	}
	if got := r.text(`a[href="/profile/edit"]`); got != "Редактировать" {
		t.Errorf("edit link %q", got)
	}
	if r.doc.Find(`form[action="/logout"] button`).Length() != 1 {
		t.Error("no logout control")
	}
	// Active orders of every kind, each linking to its page; no history.
	for kind, id := range map[string]string{
		"glk": sandbox.DemoLessonConfirmable, "pavilion": sandbox.DemoPavilionRent, "aqua": sandbox.DemoAquaPaid,
		"hotel": sandbox.DemoHotelPaid, "celRoom": sandbox.DemoRoomRent,
	} {
		if r.card(kind, id).Find(`a[href="/orders/`+kind+`/`+id+`"]`).Length() != 1 {
			t.Errorf("no active %s card %s linking to its page", kind, id)
		}
	}
	for kind, id := range map[string]string{"glk": sandbox.DemoLessonPast, "aqua": sandbox.DemoAquaCanceled, "hotel": sandbox.DemoHotelPast} {
		if r.card(kind, id).Length() != 0 {
			t.Errorf("home shows the past or canceled %s %s", kind, id)
		}
	}
	// One profile call and one call per kind.
	for _, p := range append([]string{"auth/getClientInfo"}, orderCalls...) {
		if n := a.sb.AllCalls()[p]; n != 1 {
			t.Errorf("%s called %d times, want 1", p, n)
		}
	}
}

func TestOrdersListsActiveAndHistory(t *testing.T) {
	a := signedIn(t)
	a.sb.Reset()
	r := a.get("/orders")
	if r.StatusCode != http.StatusOK {
		t.Fatalf("status %d", r.StatusCode)
	}
	for _, p := range orderCalls {
		if n := a.sb.AllCalls()[p]; n != 1 {
			t.Errorf("%s called %d times, want 1", p, n)
		}
	}
	if got := r.text("#active-h"); got != "Активные заказы" {
		t.Errorf("active heading %q", got)
	}
	if got := r.text("#history-h"); got != "История заказов" {
		t.Errorf("history heading %q", got)
	}
	active := r.doc.Find(`section[aria-labelledby="active-h"]`)
	history := r.doc.Find(`section[aria-labelledby="history-h"]`)
	for _, kind := range []string{"glk", "pavilion", "aqua", "hotel", "celRoom"} {
		if active.Find(`a[href^="/orders/`+kind+`/"]`).Length() == 0 {
			t.Errorf("no active %s order", kind)
		}
		if history.Find(`a[href^="/orders/`+kind+`/"]`).Length() == 0 {
			t.Errorf("no %s order in the history", kind)
		}
	}
	// Active soonest first, history latest first.
	order := func(sel string) []string {
		var ids []string
		for _, n := range r.doc.Find(sel + ` li[data-kind="glk"]`).Nodes {
			for _, at := range n.Attr {
				if at.Key == "data-id" {
					ids = append(ids, at.Val)
				}
			}
		}
		return ids
	}
	if got := strings.Join(order(`section[aria-labelledby="active-h"]`), ","); got != "100001,100004,100002,100003" {
		t.Errorf("active lessons in order %s, want by start ascending", got)
	}
	if got := strings.Join(order(`section[aria-labelledby="history-h"]`), ","); got != "100005,100006" {
		t.Errorf("past lessons in order %s, want by start descending", got)
	}
	// Canceled orders are history, with their status.
	if c := history.Find(`[data-kind="aqua"][data-id="300003"]`); !strings.Contains(c.Text(), "Отменен") {
		t.Error("canceled water-park order not in the history with 'Отменен'")
	}
	if r.doc.Find(".notice-err").Length() != 0 {
		t.Error("an error notice with every kind loaded")
	}
}

func TestOrdersEmptyBlocks(t *testing.T) {
	// Every seeded customer has orders in both blocks, so the empty text is
	// checked on the rendered view.
	var b strings.Builder
	p := views.Page{Title: "Заказы", Site: &views.Site{}, Assets: &views.Assets{}, User: &views.User{Name: "Иван"}}
	if err := views.OrdersPage(p, views.Orders{}).Render(context.Background(), &b); err != nil {
		t.Fatal(err)
	}
	doc, _ := goquery.NewDocumentFromReader(strings.NewReader(b.String()))
	for _, sec := range []string{"active-h", "history-h"} {
		if got := strings.TrimSpace(doc.Find(`section[aria-labelledby="` + sec + `"] p`).Text()); got != "Заказов не найдено" {
			t.Errorf("%s: %q, want 'Заказов не найдено'", sec, got)
		}
	}

	// When nothing loads, the page says so once, never blank, and names no
	// kind: all of them failed.
	a := signedIn(t)
	for _, path := range orderCalls {
		a.sb.SetFault(path, sandbox.Fault{Status: http.StatusInternalServerError, Malformed: true})
	}
	r := a.get("/orders")
	if r.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("every kind failed: status %d, want 503", r.StatusCode)
	}
	if r.text("h1") != "Заказы" || strings.Count(r.text("main"), "Не удалось загрузить заказы. Попробуйте позже.") != 1 {
		t.Errorf("failure not said exactly once:\n%s", r.text("main"))
	}
	if n := r.doc.Find(".notice-err li").Length(); n != 0 {
		t.Errorf("%d kinds named when every kind failed: %q", n, r.text(".notice-err"))
	}
	if h := a.get("/"); strings.Count(h.text("main"), "Не удалось загрузить заказы. Попробуйте позже.") != 1 || h.doc.Find(".notice-err li").Length() != 0 {
		t.Errorf("home with every kind failed:\n%s", h.text("main"))
	}
	if strings.Contains(r.body, "Заказов не найдено") {
		t.Error("'Заказов не найдено' when the orders did not load")
	}
}

// brokenCall signs the demo customer in and opens page while the provider
// answers call with a broken 500: the page is still shown.
func brokenCall(t *testing.T, call, page string) (*app, *resp) {
	t.Helper()
	a := signedIn(t)
	a.sb.SetFault(call, sandbox.Fault{Status: http.StatusInternalServerError, Malformed: true})
	r := a.get(page)
	if r.StatusCode != http.StatusOK {
		t.Fatalf("%s with %s broken: status %d", page, call, r.StatusCode)
	}
	return a, r
}

func TestOrdersShowWhatLoadedWhenAKindFails(t *testing.T) {
	a, r := brokenCall(t, "hotel/getHotelOrders", "/orders")
	notice := r.text(".notice-err")
	for _, want := range []string{"Не удалось загрузить заказы. Попробуйте позже.", "Ошибка при получении информации о заказах в отеле"} {
		if !strings.Contains(notice, want) {
			t.Errorf("notice %q lacks %q", notice, want)
		}
	}
	if r.doc.Find(`[data-kind="hotel"]`).Length() != 0 {
		t.Error("hotel orders shown although they failed")
	}
	for _, kind := range []string{"glk", "pavilion", "aqua", "celRoom"} {
		if r.doc.Find(`[data-kind="`+kind+`"]`).Length() == 0 {
			t.Errorf("%s orders missing when only the hotel failed", kind)
		}
	}
	// The home page too keeps what loaded.
	h := a.get("/")
	if h.StatusCode != http.StatusOK || !strings.Contains(h.text(".notice-err"), "Ошибка при получении информации о заказах в отеле") {
		t.Errorf("home: %d, notice %q", h.StatusCode, h.text(".notice-err"))
	}
	if h.doc.Find(`[data-kind="aqua"]`).Length() == 0 || h.text("h1") != "Здравствуйте, Иван" {
		t.Error("home lost what did load")
	}

	// A provider's own message is shown.
	a.sb.Reset()
	a.sb.SetFault("aqua/getAquaOrders", sandbox.Fault{Status: http.StatusInternalServerError})
	r = a.get("/orders")
	if !strings.Contains(r.text(".notice-err"), "Сервис временно недоступен (sandbox fault)") {
		t.Errorf("provider message not shown: %q", r.text(".notice-err"))
	}
}

func TestOrderPagesFitTheFirstFlight(t *testing.T) {
	a := signedIn(t)
	for _, p := range []string{"/", "/orders", "/orders/hotel/400001", "/orders/aqua/300004", "/profile/edit"} {
		if n, _ := a.firstFlight(p); n > 14*1024 {
			t.Errorf("%s: first flight %d bytes, budget 14 KB", p, n)
		}
	}
}

func TestHomeWhenTheProfileDoesNotLoad(t *testing.T) {
	a, r := brokenCall(t, "auth/getClientInfo", "/")
	if got := r.text("h1"); got != "Здравствуйте, Иван" {
		t.Errorf("h1 %q (the session's name)", got)
	}
	if !strings.Contains(r.text(".notice-err"), "Не удалось загрузить личные данные") {
		t.Errorf("no failure text: %q", r.text(".notice-err"))
	}
	if r.doc.Find(`[data-kind="glk"]`).Length() == 0 {
		t.Error("orders lost because the profile failed")
	}
	a.sb.Reset()
	if r := a.get("/"); r.StatusCode != http.StatusOK {
		t.Errorf("signed out by an outage: %d", r.StatusCode)
	}
}

// On the bundled sandbox every page, public or signed in, error pages
// included, starts by saying that its data is not real.
func TestDemoNoticeTopsEveryPageOnTheSandbox(t *testing.T) {
	a := signedIn(t)
	for _, p := range []string{"/", "/orders", "/orders/hotel/400001", "/orders/aqua/300005/refund", "/orders/glk/100002/transfer", "/profile/edit", "/orders/hotel/999999", "/no-such-page"} {
		r := a.get(p)
		first := r.doc.Find("body > :not(.skip)").First().Children().First()
		if !first.Is("header > p.demo") || strings.TrimSpace(first.Text()) != views.DemoNotice {
			t.Errorf("%s: the page does not start with %q", p, views.DemoNotice)
		}
	}
	anon := newApp(t)
	for _, p := range []string{"/login", "/signup"} {
		if got := anon.get(p).text("body > header > p.demo:first-child"); got != views.DemoNotice {
			t.Errorf("%s: %q", p, got)
		}
	}
}
