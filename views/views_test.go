package views

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/a-h/templ"
)

// render renders c and parses the HTML, as templ's own examples test
// components: query what a customer would see.
func render(t *testing.T, c templ.Component) *goquery.Document {
	t.Helper()
	var b bytes.Buffer
	if err := c.Render(t.Context(), &b); err != nil {
		t.Fatal(err)
	}
	doc, err := goquery.NewDocumentFromReader(&b)
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// text is what s reads, with the markup's line breaks and indents folded
// (no-break spaces, which the customer sees, are kept).
func text(s *goquery.Selection) string {
	return strings.Join(strings.FieldsFunc(s.Text(), func(r rune) bool { return r == ' ' || r == '\n' || r == '\t' }), " ")
}

func page() Page {
	return Page{Title: "Заказы", Site: &Site{SupportPhone: "+7 (800) 000-00-00"}, Assets: &Assets{}, User: &User{Name: "Иван"}, Nav: NavOrders}
}

var confirmCard = OrderCard{
	Kind: "glk", KindLabel: "Занятие с инструктором", ID: "100001", Title: "Горные лыжи",
	When: "24.11.2026 10:00", Amount: Money(2500), URL: OrderPath("glk", "100001"),
	Lines:   []KV{{Key: "Инструктор", Value: "Смирнова Анна"}},
	Actions: []Action{{Name: "confirm", Label: "Подтвердить запись", URL: OrderPath("glk", "100001", "confirm"), Token: "t1"}},
}

var aquaCard = OrderCard{
	Kind: "aqua", KindLabel: "Аквапарк", ID: "300002", Title: "Заказ № 300002",
	When:   "26.11.2026, Дневной 10:00–16:00",
	Status: KV{Key: "Статус", Value: "Не оплачен", Class: "badge-err"}, Amount: Money(3700),
	URL: OrderPath("aqua", "300002"),
}

func TestOrderCardIsCompact(t *testing.T) {
	doc := render(t, OrdersPage(page(), Orders{Active: []OrderCard{confirmCard, aquaCard}}))
	cards := doc.Find("main li.card")
	if cards.Length() != 2 {
		t.Fatalf("%d cards, want 2", cards.Length())
	}
	aqua := doc.Find(`li[data-kind="aqua"][data-id="300002"]`)
	for what, want := range map[string]string{
		".oc-top .muted": "Аквапарк",
		".badge-err":     "Не оплачен",
		"h3 a":           "Заказ № 300002",
		"strong.nw":      "3\u202f700\u00a0₽",
		"p .nw":          "26.11.2026,",
	} {
		if got := text(aqua.Find(what).First()); got != want {
			t.Errorf("aqua card %s: %q, want %q", what, got, want)
		}
	}
	if href := aqua.Find("h3 a").AttrOr("href", ""); href != "/orders/aqua/300002" {
		t.Errorf("title links to %q", href)
	}
	// Details stay on the order's page: the card shows no label list.
	if doc.Find("li.card dl").Length() != 0 {
		t.Error("a compact card shows its detail lines")
	}
	// A lesson's confirm is a form posting its token, no script needed.
	form := doc.Find(`li[data-kind="glk"] form[action="/orders/glk/100001/confirm"]`)
	if form.AttrOr("method", "") != "post" || form.Find(`input[name="token"]`).AttrOr("value", "") != "t1" ||
		text(form.Find("button")) != "Подтвердить запись" {
		t.Errorf("confirm form: %s", text(form))
	}
	if doc.Find(`li[data-kind="glk"] .badge`).Length() != 0 {
		t.Error("a lesson has no status badge, yet one is shown")
	}
}

func TestOrderCardWithoutSummaryShowsItsLines(t *testing.T) {
	c := OrderCard{Kind: "glk", KindLabel: "Занятие", ID: "1", Title: "Лыжи", URL: "/orders/glk/1",
		Lines: []KV{{Key: "Дата", Value: "24.11.2026"}}}
	doc := render(t, OrdersPage(page(), Orders{Active: []OrderCard{c}}))
	if got := text(doc.Find("li.card dl dt")); got != "Дата" {
		t.Errorf("lines not shown: %q", got)
	}
}

func TestEmptyAndFailedLists(t *testing.T) {
	doc := render(t, OrdersPage(page(), Orders{}))
	if got := text(doc.Find("#active-h + p")); got != "Заказов не найдено" {
		t.Errorf("empty list: %q", got)
	}
	doc = render(t, OrdersPage(page(), Orders{Failed: true, Problems: []string{"Ошибка при получении информации о заказах в отеле"}}))
	if got := text(doc.Find(".notice-err")); !strings.Contains(got, "Не удалось загрузить заказы. Попробуйте позже.") ||
		!strings.Contains(got, "Ошибка при получении информации о заказах в отеле") {
		t.Errorf("failure notice: %q", got)
	}
}

func TestOrderPageActions(t *testing.T) {
	d := OrderDetail{Kind: "aqua", KindLabel: "Аквапарк", ID: "300005", Title: "Заказ № 300005",
		Lines:   []KV{{Key: "Итого", Value: Money(2200)}, {Key: "Статус", Value: "Оплачен", Class: "badge-ok"}},
		Tickets: []TicketLine{{Number: "AQ-1", Title: "Взрослый (оформлен возврат)", Price: Money(2200), Status: "refunded"}},
		Actions: []Action{
			{Name: "document", Label: "Мой билет", URL: OrderPath("aqua", "300005", "ticket.pdf")},
			{Name: "transfer", Label: "Перенести", URL: OrderPath("aqua", "300005", "transfer"), Style: "btn-2"},
			{Name: "refund", Label: "Оформить возврат", URL: OrderPath("aqua", "300005", "refund"), Style: "btn-2"},
		}}
	doc := render(t, OrderPage(page(), d))
	if got := text(doc.Find("h1")); got != "Заказ № 300005" {
		t.Errorf("h1 %q", got)
	}
	ticket := doc.Find(`a[data-action="document"]`)
	// No download attribute: a refusal's page, not a silently failed file.
	if _, ok := ticket.Attr("download"); ok || ticket.AttrOr("href", "") != "/orders/aqua/300005/ticket.pdf" || text(ticket) != "Мой билет" {
		t.Errorf("ticket link: %q %q", ticket.AttrOr("href", ""), text(ticket))
	}
	for _, name := range []string{"transfer", "refund"} {
		if a := doc.Find(`a.btn-2[data-action="` + name + `"]`); a.AttrOr("href", "") != "/orders/aqua/300005/"+name {
			t.Errorf("%s: %q", name, a.AttrOr("href", ""))
		}
	}
	li := doc.Find(`.tickets li[data-status="refunded"]`)
	if got := text(li); got != "№ AQ-1 · Взрослый (оформлен возврат) · 2\u202f200\u00a0₽" {
		t.Errorf("ticket line %q", got)
	}
	if text(doc.Find("dd .badge-ok")) != "Оплачен" {
		t.Error("status badge missing")
	}
}

func TestOrderPageFailureReplacesTheOrder(t *testing.T) {
	doc := render(t, OrderPage(page(), OrderDetail{Kind: "aqua", KindLabel: "Аквапарк", ID: "300001", Error: "Заказ не найден у провайдера"}))
	if got := text(doc.Find(`.notice-err[role="alert"]`)); got != "Заказ не найден у провайдера" {
		t.Errorf("error %q", got)
	}
	if doc.Find("article").Length() != 0 {
		t.Error("the order is shown beside its error")
	}
}

func TestErrorSummary(t *testing.T) {
	var errs Errors
	errs.Add("birthday", "Введите дату рождения")
	errs.Add("", "Клиент заблокирован") // the provider's own message
	doc := render(t, ErrorSummary("Проверьте данные", errs))
	s := doc.Find(`.summary[role="alert"]`)
	if text(s.Find("h2")) != "Проверьте данные" {
		t.Errorf("title %q", text(s.Find("h2")))
	}
	if a := s.Find(`a[href="#birthday"]`); text(a) != "Введите дату рождения" {
		t.Errorf("field error not linked: %q", text(s))
	}
	if li := s.Find("li").Last(); text(li) != "Клиент заблокирован" || li.Find("a").Length() != 0 {
		t.Errorf("form error %q", text(li))
	}
	if render(t, ErrorSummary("Ой!", nil)).Find(".summary").Length() != 0 {
		t.Error("summary with no errors")
	}
}

func TestFieldErrorIsTiedToItsInput(t *testing.T) {
	var errs Errors
	errs.Add("phone", "Введите номер телефона")
	doc := render(t, LoginPage(Page{Title: "Авторизация", Site: &Site{}, Assets: &Assets{}}, LoginForm{Title: "Ой!", Errors: errs}))
	in := doc.Find("input#phone")
	if in.AttrOr("aria-invalid", "") != "true" || !strings.Contains(in.AttrOr("aria-describedby", ""), "phone-error") {
		t.Errorf("input: invalid=%q describedby=%q", in.AttrOr("aria-invalid", ""), in.AttrOr("aria-describedby", ""))
	}
	if got := text(doc.Find("#phone-error")); got != "Ошибка: Введите номер телефона" {
		t.Errorf("field error %q", got)
	}
	if got := text(doc.Find("#phone-hint .nw")); got != "+7 (900) 123-45-67" {
		t.Errorf("the example phone may break inside: %q", got)
	}
}

func TestShellKeepsNameAndLogoutTogether(t *testing.T) {
	p := page()
	p.Notice = "Запись подтверждена"
	doc := render(t, OrdersPage(p, Orders{}))
	user := doc.Find("nav.nav .user")
	if text(user.Find(".who")) != "Иван" || text(user.Find(`form[action="/logout"][method="post"] button`)) != "Выйти" {
		t.Errorf("name and logout: %q", text(user))
	}
	if a := doc.Find(`nav.nav a[aria-current="page"]`); text(a) != "Заказы" {
		t.Errorf("current menu item %q", text(a))
	}
	if got := text(doc.Find(`main .notice-ok[role="status"]`)); got != "Запись подтверждена" {
		t.Errorf("notice %q", got)
	}
}

func TestCodePageSpellsSMSOneWay(t *testing.T) {
	doc := render(t, CodePage(Page{Title: "Код из SMS", Site: &Site{}, Assets: &Assets{}}, CodeForm{Masked: MaskedPhone("79000000000"), SandboxURL: "http://127.0.0.1:8090/sandbox/sms/79000000000"}))
	if got := text(doc.Find(`label[for="code"]`)); got != "Код из SMS" {
		t.Errorf("label %q", got)
	}
	if strings.Contains(doc.Text(), "СМС") {
		t.Error("'СМС' in Cyrillic on the code page")
	}
	if got := text(doc.Find("strong.nw")); got != "+7 (900) ***-**-00" {
		t.Errorf("masked phone %q", got)
	}
	if doc.Find(`.sandbox a[href="http://127.0.0.1:8090/sandbox/sms/79000000000"]`).Length() != 1 {
		t.Error("no link to the sandbox outbox")
	}
}

func TestMoneyAndDates(t *testing.T) {
	for _, tc := range []struct{ got, want string }{
		{Money(0), "0\u00a0₽"},
		{Money(950), "950\u00a0₽"},
		{Money(1500), "1\u202f500\u00a0₽"},
		{Money(1234567.5), "1\u202f234\u202f567,50\u00a0₽"},
		{Money(-2200), "−2\u202f200\u00a0₽"},
		{Date(time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)), "21.11.2026"},
		{DateTime(time.Date(2026, 11, 21, 10, 5, 0, 0, time.UTC)), "21.11.2026 10:05"},
		{Clock(time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC)), "09:00"},
		{Date(time.Time{}), "—"},
		{Phone("79001234567"), "+7 (900) 123-45-67"},
		{MaskedPhone("79001234567"), "+7 (900) ***-**-67"},
	} {
		if tc.got != tc.want {
			t.Errorf("%q, want %q", tc.got, tc.want)
		}
	}
}

func TestNoBreakKeepsNumbersWhole(t *testing.T) {
	for in, want := range map[string]string{
		"03.12.2026 16:00 — 06.12.2026 14:00": `<span class="nw">03.12.2026 16:00</span> — <span class="nw">06.12.2026 14:00</span>`,
		"Вечерний 16:00–22:00":                `Вечерний <span class="nw">16:00–22:00</span>`,
		"+7 (900) 000-00-00":                  `<span class="nw">+7 (900) 000-00-00</span>`,
		Money(20000):                          `<span class="nw">20` + nnbsp + "000\u00a0₽</span>",
		"ivanov1985@example.ru":               "ivanov1985@example.ru", // may wrap: it has letters
		"Групповое занятие":                   "Групповое занятие",
		"<7>":                                 `<span class="nw">&lt;7&gt;</span>`, // escaped
	} {
		got, err := templ.ToGoHTML(t.Context(), noBreak(in))
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != want {
			t.Errorf("noBreak(%q)\n got %s\nwant %s", in, got, want)
		}
	}
}

// The shell shows no SVG image: the browser draws each in a document of its
// own, made on the page's main thread after the first paint, which on a
// slow phone blocks a tap for tens of milliseconds. The logo is inline and
// the favicon a PNG.
func TestShellHasNoSVGImage(t *testing.T) {
	out := page()
	out.User = nil
	for name, doc := range map[string]*goquery.Document{
		"signed in":  render(t, OrdersPage(page(), Orders{})),
		"signed out": render(t, LoginPage(out, LoginForm{})),
	} {
		doc.Find(`img[src], link[rel~="icon"], link[rel="apple-touch-icon"]`).Each(func(_ int, s *goquery.Selection) {
			src := s.AttrOr("src", s.AttrOr("href", ""))
			if strings.HasSuffix(src, ".svg") || s.AttrOr("type", "") == "image/svg+xml" {
				t.Errorf("%s: %s", name, goquery.NodeName(s)+" "+src)
			}
		})
		if doc.Find(`header a.brand svg`).Length() != 1 || doc.Find(`link[rel="icon"][type="image/png"]`).Length() != 1 {
			t.Errorf("%s: no inline logo or no PNG icon", name)
		}
	}
}
