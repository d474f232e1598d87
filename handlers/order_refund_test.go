package handlers_test

import (
	"bytes"
	"context"
	"io"
	"maps"
	"mime/multipart"
	"net/http"
	"net/url"
	"runtime"
	"strings"
	"testing"
	"time"

	"lk/gateway"
	"lk/gateway/sandbox"
	"lk/gateway/sandbox/sandboxtest"
	"lk/handlers"
	"lk/store"
	"lk/store/redistest"
)

const msgRefundDone = "Возврат успешно оформлен. Внимание! Деньги на карту вернутся в течение 5-10 дней (максимально возможный срок - 30 дней)."

// refundKinds are the demo orders that can be refunded, one per kind, all
// before their start date (direct refunds).
var refundKinds = []struct {
	kind, id, call string
}{
	{"pavilion", sandbox.DemoPavilionRent, "Rent/registerRefund"},
	{"celRoom", sandbox.DemoRoomRent, "CelRooms/registerRefund"},
	{"aqua", sandbox.DemoAquaPaid, "aqua/registerRefund1C"},
	{"hotel", sandbox.DemoHotelPaid, "hotel/registerRefund"},
}

// A direct refund of every kind: the contact prefilled from the profile, no
// reason asked, one provider call, the success text once on /orders; the
// same form again calls nobody and answers the same.
func TestRefundEveryKind(t *testing.T) {
	a := signedIn(t)
	for _, tc := range refundKinds {
		t.Run(tc.kind, func(t *testing.T) {
			a.sb.Reset()
			action := "/orders/" + tc.kind + "/" + tc.id + "/refund"
			order := a.get("/orders/" + tc.kind + "/" + tc.id)
			if href := order.doc.Find(`a[data-action="refund"]`).AttrOr("href", ""); href != action {
				t.Fatalf("the order offers no refund (%q)", href)
			}
			p := a.get(action)
			if p.StatusCode != http.StatusOK || p.text("h1") != "Оформить возврат" || !strings.Contains(p.text("main"), "Вы уверены что хотите оформить возврат?") {
				t.Fatalf("GET: %d %q", p.StatusCode, p.text("h1"))
			}
			if a.sb.AllCalls()["auth/getClientInfo"] != 1 {
				t.Errorf("profile asked %d times", a.sb.AllCalls()["auth/getClientInfo"])
			}
			for name, want := range map[string]string{"surname": "Иванов", "name": "Иван", "secondName": "Иванович",
				"email": "ivanov@example.ru", "phone": "+7 (900) 000-00-00"} {
				if got := p.doc.Find(`input[name="`+name+`"]`).AttrOr("value", ""); got != want {
					t.Errorf("%s prefilled %q, want %q", name, got, want)
				}
			}
			if p.doc.Find(`[name="comment"], input[type="file"]`).Length() != 0 {
				t.Error("a direct refund asks for a reason or documents")
			}
			if !strings.Contains(p.text("main"), "К возврату: ") {
				t.Error("the amount is not shown")
			}
			if enc := p.doc.Find(`form[action^="`+action+`?form="]`).AttrOr("enctype", ""); enc != "multipart/form-data" {
				t.Errorf("enctype %q", enc)
			}
			extra := url.Values{}
			if tc.kind == "aqua" {
				paid := a.ticketIDs(sandbox.DemoGUID, tc.id, gateway.TicketPaid)
				extra["tickets"] = paid[:1]
			}
			form := p.browserForm(action)
			for k, v := range extra {
				form[k] = v
			}
			r := a.postFiles(a.client, p.formAction(action), form, nil)
			if r.StatusCode != http.StatusSeeOther || r.Header.Get("Location") != "/orders" {
				t.Fatalf("POST: %d → %q\n%s", r.StatusCode, r.Header.Get("Location"), r.text("main"))
			}
			if n := a.sb.AllCalls()[tc.call]; n != 1 {
				t.Errorf("%s called %d times", tc.call, n)
			}
			got := a.lastRefund()
			if got.Path != tc.call || got.OrderID != tc.id || got.Form == nil || got.Form.Surname != "Иванов" ||
				got.Form.Phone != "79000000000" || got.Form.OrderID != tc.id || len(got.Documents) != 0 {
				t.Errorf("the provider got %+v", got)
			}
			if tc.kind == "aqua" {
				if len(got.Products) != 1 || got.Products[0].ProductID == "" || got.Products[0].Barcode == "" ||
					!strings.HasPrefix(got.Products[0].EventDate, "Дата: ") || got.Products[0].Price <= 0 || got.Products[0].Name == "" {
					t.Errorf("products %+v", got.Products)
				}
			}
			if n := a.get("/orders").text(".notice-ok"); n != msgRefundDone {
				t.Errorf("notice %q", n)
			}
			if n := a.get("/orders").text(".notice-ok"); n != "" {
				t.Errorf("the notice again: %q", n)
			}
			again := a.postFiles(a.client, p.formAction(action), form, nil)
			if again.StatusCode != http.StatusSeeOther || again.Header.Get("Location") != "/orders" || a.sb.AllCalls()[tc.call] != 1 {
				t.Errorf("replay: %d → %q, calls %d", again.StatusCode, again.Header.Get("Location"), a.sb.AllCalls()[tc.call])
			}
		})
	}
}

// Order 300005 is today's: without a reason and documents the refund is
// refused on the server with every answer kept; with them it goes through
// and the provider gets both files byte for byte.
func TestRefundModerationToday(t *testing.T) {
	a := signedIn(t)
	id, action := sandbox.DemoAquaToday, "/orders/aqua/"+sandbox.DemoAquaToday+"/refund"
	p := a.get(action)
	if p.doc.Find(`textarea[name="comment"]`).Length() != 1 || p.doc.Find(`input[type="file"][name="documents"][multiple]`).Length() != 1 {
		t.Fatal("today's order does not ask for a reason and documents")
	}
	if !strings.Contains(p.text("main"), "справка, больничный лист или первая страница паспорта") {
		t.Error("the documents are not explained")
	}
	// The mode is the server's: a field saying otherwise changes nothing.
	r := a.resubmit(a.client, p, action, url.Values{"surname": {"Петрова"}, "mode": {"direct"}}, nil)
	if r.StatusCode != http.StatusUnprocessableEntity {
		t.Fatalf("without reason and documents: %d", r.StatusCode)
	}
	if a.sb.AllCalls()["aqua/registerRefund1C"] != 0 {
		t.Fatal("the provider was called")
	}
	if !strings.HasPrefix(r.text("title"), "Ошибка: ") {
		t.Errorf("title %q", r.text("title"))
	}
	for field, want := range map[string]string{"comment": "Укажите причину возврата",
		"documents": "Приложите подтверждающий документ: справка, больничный лист или первая страница паспорта"} {
		if got := r.text("#" + field + "-error"); !strings.Contains(got, want) {
			t.Errorf("%s: %q", field, got)
		}
		if r.doc.Find(`#error-summary a[href="#`+field+`"]`).Length() != 1 {
			t.Errorf("%s not in the summary", field)
		}
	}
	if got := r.doc.Find(`input[name="surname"]`).AttrOr("value", ""); got != "Петрова" {
		t.Errorf("surname not kept: %q", got)
	}
	if r.doc.Find(`input[name="tickets"][checked]`).Length() != 1 {
		t.Error("the chosen ticket is not kept")
	}
	a1, a2 := doc("справка.pdf", 300<<10), doc("паспорт.jpg", 1<<20+17)
	r = a.resubmit(a.client, r, action, url.Values{"comment": {"Заболел ребёнок"}}, []upload{a1, a2})
	if r.StatusCode != http.StatusSeeOther || r.Header.Get("Location") != "/orders" {
		t.Fatalf("with reason and files: %d\n%s", r.StatusCode, r.text("main"))
	}
	got := a.lastRefund()
	sameDocs(t, got.Documents, a1, a2)
	if got.Documents[0].Extension != "pdf" || got.Form.Comment != "Заболел ребёнок" || got.Form.Surname != "Петрова" || len(got.Products) != 1 {
		t.Errorf("the provider got %+v", got)
	}
	if a.get("/orders/aqua/"+id).doc.Find(`a[data-action="refund"]`).Length() != 0 {
		t.Error("refund still offered with no paid ticket left")
	}
}

// With the provider failing, the documents are kept for the session and
// order: the form lists them, and a resubmission without choosing them
// again delivers them. For every refund call, each in moderation mode.
func TestRefundFaultKeepsFiles(t *testing.T) {
	for _, tc := range refundKinds {
		for _, fault := range []struct {
			name   string
			f      sandbox.Fault
			status int
			text   string
		}{
			{"500", sandbox.Fault{Status: http.StatusInternalServerError}, http.StatusBadGateway, "Сервис временно недоступен (sandbox fault)"},
			{"drop", sandbox.Fault{Drop: true}, http.StatusServiceUnavailable, "Не удалось выполнить запрос"},
		} {
			t.Run(tc.kind+"/"+fault.name, func(t *testing.T) {
				a := newAppStartingOn(t, 0)
				a.signIn(a.client, demoPhone)
				a.sb.SetFault(tc.call, fault.f)
				action := "/orders/" + tc.kind + "/" + tc.id + "/refund"
				extra := url.Values{"comment": {"Не сможем приехать"}}
				if tc.kind == "aqua" {
					extra["tickets"] = a.ticketIDs(sandbox.DemoGUID, tc.id, gateway.TicketPaid)[:1]
				}
				f1, f2 := doc(tc.kind+"-справка.pdf", 2000), doc(tc.kind+"-скан", 5000)
				r := a.submitRefund(a.client, tc.kind, tc.id, extra, []upload{f1, f2})
				want := fault.text
				if tc.kind == "aqua" && fault.name == "500" {
					want = "Ошибка при регистрации возврата: " + fault.text
				}
				if r.StatusCode != fault.status || r.text(".notice-err") != want {
					t.Fatalf("failure: %d %q, want %d %q", r.StatusCode, r.text(".notice-err"), fault.status, want)
				}
				if n := a.sb.AllCalls()[tc.call]; n != 1 {
					t.Errorf("%s called %d times", tc.call, n)
				}
				kept := r.doc.Find(`button[name="remove"]`)
				if kept.Length() != 2 || !strings.Contains(r.text("main"), f1.name) {
					t.Fatalf("kept files: %d", kept.Length())
				}
				if got := r.text(`textarea[name="comment"]`); got != "Не сможем приехать" {
					t.Errorf("reason not kept: %q", got)
				}
				a.sb.SetFault(tc.call, sandbox.Fault{})
				ok := a.resubmit(a.client, r, action, nil, nil)
				if ok.StatusCode != http.StatusSeeOther {
					t.Fatalf("resubmission: %d %q", ok.StatusCode, ok.text("main"))
				}
				got := a.lastRefund()
				if got.Path != tc.call || got.OrderID != tc.id {
					t.Fatalf("refund %s %s", got.Path, got.OrderID)
				}
				sameDocs(t, got.Documents, f1, f2)
			})
		}
	}
}

// A kept file is removed by its own button, without JavaScript, and the
// answers stay.
func TestRefundRemoveKeptFile(t *testing.T) {
	a := signedIn(t)
	action := "/orders/aqua/" + sandbox.DemoAquaToday + "/refund"
	f1, f2 := doc("one.txt", 10), doc("two.txt", 20)
	// No reason: refused, the files kept.
	r := a.submitRefund(a.client, "aqua", sandbox.DemoAquaToday, url.Values{"surname": {"Сидоров"}}, []upload{f1, f2})
	if r.StatusCode != http.StatusUnprocessableEntity || r.doc.Find(`button[name="remove"]`).Length() != 2 {
		t.Fatalf("refusal: %d, %d files", r.StatusCode, r.doc.Find(`button[name="remove"]`).Length())
	}
	// Enter in a field submits with the first submit button: not a 'Удалить'.
	if first := r.doc.Find(`form[action^="` + action + `?"] button[type="submit"]`).First(); first.AttrOr("name", "") != "" {
		t.Error("the first submit button of the form removes a file")
	}
	id := r.doc.Find(`button[name="remove"]`).First().AttrOr("value", "")
	r = a.resubmit(a.client, r, action, url.Values{"remove": {id}}, nil)
	if r.StatusCode != http.StatusOK || r.doc.Find(`button[name="remove"]`).Length() != 1 || strings.Contains(r.text("main"), "one.txt") {
		t.Fatalf("remove: %d, %d files", r.StatusCode, r.doc.Find(`button[name="remove"]`).Length())
	}
	if got := r.doc.Find(`input[name="surname"]`).AttrOr("value", ""); got != "Сидоров" {
		t.Errorf("surname not kept: %q", got)
	}
	r = a.resubmit(a.client, r, action, url.Values{"comment": {"Причина"}}, nil)
	if r.StatusCode != http.StatusSeeOther {
		t.Fatalf("refund: %d %s", r.StatusCode, r.text("main"))
	}
	sameDocs(t, a.lastRefund().Documents, f2)
}

// Kept files belong to one session and one order: another session of the
// same customer, or another order, sees none of them.
func TestRefundFilesStayWithTheirSession(t *testing.T) {
	a := newAppStartingOn(t, 0)
	a.signIn(a.client, demoPhone)
	r := a.submitRefund(a.client, "aqua", sandbox.DemoAquaToday, nil, []upload{doc("secret.pdf", 100)})
	if r.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(r.text("main"), "secret.pdf") {
		t.Fatalf("refusal: %d", r.StatusCode)
	}
	other := a.newClient()
	a.signIn(other, demoPhone)
	for _, path := range []string{"/orders/aqua/" + sandbox.DemoAquaToday + "/refund", "/orders/hotel/" + sandbox.DemoHotelPaid + "/refund"} {
		c := other
		if strings.Contains(path, "hotel") {
			c = a.client
		}
		if p := a.getWith(c, path); p.StatusCode != http.StatusOK || strings.Contains(p.body, "secret.pdf") {
			t.Errorf("%s: %d, shows another's file: %v", path, p.StatusCode, strings.Contains(p.body, "secret.pdf"))
		}
	}
	if !strings.Contains(a.get("/orders/aqua/"+sandbox.DemoAquaToday+"/refund").body, "secret.pdf") {
		p := a.get("/orders/aqua/" + sandbox.DemoAquaToday + "/refund")
		t.Fatalf("the file is gone before another session tried anything: %d %s", p.StatusCode, p.text("main"))
	}
	// Another session cannot remove it either: its token is not this form's.
	id := r.doc.Find(`button[name="remove"]`).AttrOr("value", "")
	form := a.getWith(other, "/orders/aqua/"+sandbox.DemoAquaToday+"/refund").browserForm("/orders/aqua/" + sandbox.DemoAquaToday + "/refund")
	form.Set("remove", id)
	a.postFiles(other, "/orders/aqua/"+sandbox.DemoAquaToday+"/refund", form, nil)
	if !strings.Contains(a.get("/orders/aqua/"+sandbox.DemoAquaToday+"/refund").body, "secret.pdf") {
		t.Error("another session removed the file")
	}
}

// Every rule is the server's: refused with 422, the reason at the field, and
// no provider call.
func TestRefundRulesWithoutProviderCall(t *testing.T) {
	a := signedIn(t)
	paid := a.ticketIDs(sandbox.DemoGUID, sandbox.DemoAquaPaid, gateway.TicketPaid)
	foreign := a.ticketIDs(sandbox.OtherGUID, sandbox.OtherAqua, gateway.TicketPaid)
	otherOrder := a.ticketIDs(sandbox.DemoGUID, sandbox.DemoAquaVIPRefunded, gateway.TicketPaid)
	eleven := make([]upload, 11)
	for i := range eleven {
		eleven[i] = doc("f"+string(rune('a'+i))+".txt", 100+i)
	}
	for _, tc := range []struct {
		name, id, field, text string
		extra                 url.Values
		files                 []upload
	}{
		{"no ticket", sandbox.DemoAquaPaid, "tickets", "Выберите хотя бы один оплаченный билет", url.Values{"tickets": nil}, nil},
		{"another customer's ticket", sandbox.DemoAquaPaid, "tickets", "Вернуть можно только оплаченные билеты этого заказа", url.Values{"tickets": foreign}, nil},
		{"another order's ticket", sandbox.DemoAquaPaid, "tickets", "Вернуть можно только оплаченные билеты этого заказа", url.Values{"tickets": {paid[0], otherOrder[0]}}, nil},
		// A ticket of this order whose refund is registered is no mistake
		// of the form's: TestSecondTabSameTicketsRefund.
		{"no surname", sandbox.DemoAquaPaid, "surname", "Укажите фамилию", url.Values{"tickets": paid[:1], "surname": {" "}}, nil},
		{"no name", sandbox.DemoAquaPaid, "name", "Укажите имя", url.Values{"tickets": paid[:1], "name": {""}}, nil},
		{"bad phone", sandbox.DemoAquaPaid, "phone", "Укажите номер телефона в формате +7 (9__) ___-__-__", url.Values{"tickets": paid[:1], "phone": {"12345"}}, nil},
		{"bad e-mail", sandbox.DemoAquaPaid, "email", "Укажите адрес электронной почты в виде name@example.ru", url.Values{"tickets": paid[:1], "email": {"ivanov@"}}, nil},
		{"no document", sandbox.DemoAquaToday, "documents", "Приложите подтверждающий документ", url.Values{"comment": {"Причина"}}, nil},
		{"no reason", sandbox.DemoAquaToday, "comment", "Укажите причину возврата", nil, []upload{doc("a.pdf", 10)}},
		{"an empty file", sandbox.DemoAquaToday, "documents", "Файл «empty.pdf» пустой", url.Values{"comment": {"Причина"}}, []upload{{"empty.pdf", nil}}},
		{"eleven files", sandbox.DemoAquaToday, "documents", "Можно приложить не больше 10 файлов", url.Values{"comment": {"Причина"}}, eleven},
		{"a file over 10 MB", sandbox.DemoAquaToday, "documents", "Файл «big.bin» больше 10 МБ", url.Values{"comment": {"Причина"}}, []upload{doc("big.bin", 10<<20+1)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a.sb.Reset()
			r := a.submitRefund(a.client, "aqua", tc.id, tc.extra, tc.files)
			if r.StatusCode != http.StatusUnprocessableEntity {
				t.Fatalf("status %d, want 422\n%s", r.StatusCode, r.text("main"))
			}
			if got := r.text("#" + tc.field + "-error"); !strings.Contains(got, tc.text) {
				t.Errorf("%s: %q, want %q", tc.field, got, tc.text)
			}
			if !strings.Contains(r.text("#error-summary"), tc.text) {
				t.Errorf("summary %q", r.text("#error-summary"))
			}
			if n := a.sb.AllCalls()["aqua/registerRefund1C"]; n != 0 {
				t.Errorf("the provider was called %d times", n)
			}
		})
	}
	if n := len(sandboxtest.Refunds(a.sb)); n != 0 {
		t.Errorf("%d refunds registered", n)
	}
	// Eleven files are not kept: the customer chooses again.
	r := a.get("/orders/aqua/" + sandbox.DemoAquaToday + "/refund")
	if n := r.doc.Find(`button[name="remove"]`).Length(); n != 1 {
		t.Errorf("%d files kept, want only a.pdf", n)
	}
}

// A lesson has no refund; a second customer gets 404 on every refund and
// cancel route of the demo customer's orders, and the provider hears nothing.
func TestRefundAndCancelOwnership(t *testing.T) {
	a := signedIn(t)
	if r := a.get("/orders/glk/" + sandbox.DemoLessonCancelable + "/refund"); r.StatusCode != http.StatusNotFound {
		t.Errorf("lesson refund: %d", r.StatusCode)
	}
	form := a.get("/orders/aqua/" + sandbox.DemoAquaPaid + "/refund").browserForm("/orders/aqua/" + sandbox.DemoAquaPaid + "/refund")
	other := a.newClient()
	a.signIn(other, otherPhone)
	a.sb.Reset()
	orders := []string{"glk/" + sandbox.DemoLessonCancelable, "pavilion/" + sandbox.DemoPavilionCancelOnly, "pavilion/" + sandbox.DemoPavilionRent,
		"celRoom/" + sandbox.DemoRoomRent, "aqua/" + sandbox.DemoAquaPaid, "aqua/" + sandbox.DemoAquaToday, "hotel/" + sandbox.DemoHotelPaid}
	for _, o := range orders {
		for _, act := range []string{"refund", "cancel"} {
			path := "/orders/" + o + "/" + act
			if r := a.getWith(other, path); r.StatusCode != http.StatusNotFound {
				t.Errorf("GET %s: %d", path, r.StatusCode)
			}
			if r := a.postFiles(other, path, form, []upload{doc("x.pdf", 10)}); r.StatusCode != http.StatusNotFound {
				t.Errorf("POST %s (multipart): %d", path, r.StatusCode)
			}
			if r := a.postWith(other, path, form, nil); r.StatusCode != http.StatusNotFound {
				t.Errorf("POST %s: %d", path, r.StatusCode)
			}
		}
	}
	for call, n := range a.sb.AllCalls() {
		if strings.Contains(call, "efund") || strings.Contains(call, "ancel") || call == "auth/getClientInfo" {
			t.Errorf("%s called %d times", call, n)
		}
	}
}

// 30 MB gets 413 with a Russian page, with or without a Content-Length, and
// the server goes on serving.
func TestRefundUploadLimit(t *testing.T) {
	a := signedIn(t)
	action := "/orders/aqua/" + sandbox.DemoAquaToday + "/refund"
	form := a.get(action).browserForm(action)
	form.Set("comment", "Причина")
	r := a.postFiles(a.client, action, form, []upload{doc("a.bin", 10<<20), doc("b.bin", 10<<20), doc("c.bin", 10<<20)})
	if r.StatusCode != http.StatusRequestEntityTooLarge || !strings.Contains(r.text("main"), "25 МБ") {
		t.Errorf("30 MB: %d %q", r.StatusCode, r.text("main"))
	}
	// Without a Content-Length the limit stops the reading.
	var head bytes.Buffer
	w := multipart.NewWriter(&head)
	for k := range form {
		_ = w.WriteField(k, form.Get(k))
	}
	_, _ = w.CreateFormFile("documents", "huge.bin") // its 30 MB follow
	req, _ := http.NewRequest(http.MethodPost, a.srv.URL+action, io.MultiReader(&head, &endlessBody{left: 30 << 20}))
	req.Header.Set("Content-Type", w.FormDataContentType())
	req.ContentLength = -1
	res, err := a.client.Do(req)
	if err == nil {
		if res.StatusCode != http.StatusRequestEntityTooLarge {
			t.Errorf("30 MB chunked: %d", res.StatusCode)
		}
		res.Body.Close()
	} else {
		t.Logf("30 MB chunked: the server closed the connection: %v", err)
	}
	if n := a.sb.AllCalls()["aqua/registerRefund1C"]; n != 0 {
		t.Errorf("the provider was called %d times", n)
	}
	if r := a.get(action); r.StatusCode != http.StatusOK {
		t.Errorf("after: %d", r.StatusCode)
	}
	// The larger limit is the refund route's only.
	big := url.Values{"token": {strings.Repeat("x", 100<<10)}}
	if r := a.post("/orders/pavilion/"+sandbox.DemoPavilionCancelOnly+"/cancel", big); r.StatusCode != http.StatusRequestEntityTooLarge {
		t.Errorf("100 KB cancel form: %d", r.StatusCode)
	}
}

// 40 parallel uploads of about 24 MB from one session, half to a lesson
// (which has no refund) and half to a water-park refund that takes
// documents: the lesson's are refused before their body is read, and the
// session uploads one at a time, so the process stays under 256 MB, and
// every answer is a Russian page (503 with Retry-After and the reason kept
// for the uploads turned away).
func TestUploadBurstKeepsMemoryBounded(t *testing.T) {
	runAlone(t)
	a := signedIn(t)
	lesson := "/orders/glk/" + sandbox.DemoLessonCancelable + "/refund"
	aqua := "/orders/aqua/" + sandbox.DemoAquaToday + "/refund"
	form := a.get(aqua).browserForm(aqua)
	form.Set("comment", "Заболел ребёнок")
	files := []upload{doc("a.pdf", 8<<20), doc("b.pdf", 8<<20), doc("c.pdf", 8<<20-4096)}
	body, ctype := multipartBody(t, form, files)
	files = nil
	runtime.GC()
	resetPeakRSS(t)
	before := peakRSS(t)

	const n = 40
	answers := atOnce(n, func(i int) *resp {
		if i%2 == 0 {
			return a.postBody(a.client, lesson, ctype, body)
		}
		return a.postBody(a.client, aqua, ctype, body)
	})
	peak := peakRSS(t)
	t.Logf("peak RSS %d MB (%d MB before the burst)", peak>>20, before>>20)
	// The race detector's shadow memory multiplies every byte; the bound
	// holds for the program as built. The peak includes the sandbox, in
	// this process, decoding the one refund that goes through.
	if !raceEnabled && peak > 256<<20 {
		t.Errorf("peak RSS %d MB", peak>>20)
	}
	statuses := map[int]int{}
	for i, r := range answers {
		if r == nil { // no answer at all (the connection reset), already reported
			t.Errorf("answer %d: none", i)
			continue
		}
		statuses[r.StatusCode]++
		if !strings.HasPrefix(r.Header.Get("Content-Type"), "text/html") && r.StatusCode != http.StatusSeeOther {
			t.Errorf("answer %d: %d %s", i, r.StatusCode, r.Header.Get("Content-Type"))
		}
		if r.StatusCode != http.StatusSeeOther && !cyrillicText.MatchString(r.text("main")) {
			t.Errorf("answer %d: %d without a Russian page: %.200q", i, r.StatusCode, r.body)
		}
		if i%2 == 0 && r.StatusCode != http.StatusNotFound {
			t.Errorf("lesson %d: %d", i, r.StatusCode)
		}
		if r.StatusCode == http.StatusServiceUnavailable {
			if r.Header.Get("Retry-After") == "" {
				t.Errorf("answer %d: 503 without Retry-After", i)
			}
			if got := r.doc.Find(`textarea[name="comment"]`).Text(); got != "Заболел ребёнок" {
				t.Errorf("answer %d: the reason typed is not kept: %q", i, got)
			}
		}
	}
	t.Logf("answers by status: %v", statuses)
	if got := a.sb.AllCalls()["aqua/registerRefund1C"]; got != 1 {
		t.Errorf("the provider was asked for %d refunds", got)
	}
}

// The room for uploads is the process's, shared by every customer: while
// one customer's refund is being sent, another's upload that does not fit
// is turned away before it is read, with 503, Retry-After and what was
// typed; once the first is done, the second goes through.
func TestUploadRoomIsShared(t *testing.T) {
	a := newAppOptions(t, nil, func(o *handlers.Options) { o.UploadBudget = 1 }, gateway.WithRetries(0))
	a.signIn(a.client, demoPhone)
	other := a.newClient()
	a.signIn(other, otherPhone)
	paid := "/orders/aqua/" + sandbox.DemoAquaToday + "/refund"
	first := a.get(paid).browserForm(paid)
	first.Set("comment", "Заболел ребёнок")
	orders := a.getWith(other, "/orders").doc.Find(`a[href^="/orders/aqua/"]`)
	href, _ := orders.First().Attr("href")
	if href == "" {
		t.Fatal("the second customer has no water-park order")
	}
	theirs := href + "/refund"
	second := a.getWith(other, theirs).browserForm(theirs)
	second.Set("surname", "Сидорова")

	release := make(chan struct{})
	a.sb.SetFault("aqua/registerRefund1C", sandbox.Fault{Delay: 300 * time.Millisecond, Times: 1})
	go func() {
		defer close(release)
		if r := a.postFiles(a.client, paid, first, []upload{doc("a.pdf", 1000)}); r.StatusCode != http.StatusSeeOther {
			t.Errorf("first: %d %s", r.StatusCode, r.text("main"))
		}
	}()
	for a.sb.AllCalls()["aqua/registerRefund1C"] == 0 {
		select {
		case <-release:
			t.Fatal("the first refund ended before the provider was asked")
		case <-time.After(5 * time.Millisecond):
		}
	}
	r := a.postFiles(other, theirs, second, []upload{doc("b.pdf", 1000)})
	if r.StatusCode != http.StatusServiceUnavailable || r.Header.Get("Retry-After") == "" || !strings.Contains(r.text(".notice-err"), "выберите файлы ещё раз") {
		t.Fatalf("second while the first runs: %d %q", r.StatusCode, r.text(".notice-err"))
	}
	if got := r.doc.Find(`input[name="surname"]`).AttrOr("value", ""); got != "Сидорова" {
		t.Errorf("the surname typed is not kept: %q", got)
	}
	// The same customer's second refund, from another tab, while his first
	// is sent: refused too, and counted apart from the room.
	today := "/orders/aqua/" + sandbox.DemoAquaPaid + "/refund"
	if r := a.postFiles(a.client, today, a.get(today).browserForm(today), nil); r.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("the same session's second upload: %d %q", r.StatusCode, r.text(".notice-err"))
	}
	if m := a.metrics(); !strings.Contains(m, `lk_uploads_refused_total{reason="full"} 1`) || !strings.Contains(m, `lk_uploads_refused_total{reason="session"} 1`) {
		t.Errorf("refusals not counted by reason:\n%s", m)
	}
	<-release
	// Let in now, it meets the refund's own rules (that customer's order
	// may want tickets chosen or a reason).
	if r := a.resubmit(other, r, theirs, nil, []upload{doc("b.pdf", 1000)}); r.StatusCode == http.StatusServiceUnavailable {
		t.Errorf("second after the first: %d %q", r.StatusCode, r.text(".notice-err"))
	}
}

// A burst of the same refund form (a double click, a retry) reaches the
// provider once, and every answer is the first one's.
func TestRefundTokenBurst(t *testing.T) {
	a := signedIn(t)
	action := "/orders/aqua/" + sandbox.DemoAquaToday + "/refund"
	page := a.get(action)
	form, post := page.browserForm(action), page.formAction(action)
	form.Set("comment", "Причина")
	files := []upload{doc("a.pdf", 4000), doc("b.pdf", 9000)}
	a.sb.SetFault("aqua/registerRefund1C", sandbox.Fault{Delay: 200 * time.Millisecond})
	const n = 12
	answers := atOnce(n, func(int) *resp { return a.postFiles(a.client, post, form, files) })
	if got := a.sb.AllCalls()["aqua/registerRefund1C"]; got != 1 {
		t.Errorf("the provider was asked %d times", got)
	}
	for i, r := range answers {
		if r.StatusCode != http.StatusSeeOther || r.Header.Get("Location") != "/orders" {
			t.Errorf("answer %d: %d %q", i, r.StatusCode, r.text(".notice-err"))
		}
	}
	sameDocs(t, a.lastRefund().Documents, files...)
	if r := a.postFiles(a.client, post, form, files); r.StatusCode != http.StatusSeeOther || a.sb.AllCalls()["aqua/registerRefund1C"] != 1 {
		t.Errorf("replay: %d, calls %d", r.StatusCode, a.sb.AllCalls()["aqua/registerRefund1C"])
	}
}

// The provider's refusal of a water-park refund under HTTP 200 is its own
// text (or the refund's fallback), without 'Ошибка при регистрации
// возврата', which leads only an answer with a failed HTTP status.
func TestRefundAquaRefusal(t *testing.T) {
	// We think the visit is tomorrow; the provider knows it is today and
	// wants a reason and documents.
	a := newAppStartingOn(t, 1)
	a.signIn(a.client, demoPhone)
	r := a.submitRefund(a.client, "aqua", sandbox.DemoAquaToday, nil, nil)
	want := "Для возврата в день начала или позже укажите причину и приложите подтверждающие документы"
	if r.StatusCode != http.StatusUnprocessableEntity || r.text(".notice-err") != want {
		t.Errorf("refusal: %d %q", r.StatusCode, r.text(".notice-err"))
	}
	if n := a.sb.AllCalls()["aqua/registerRefund1C"]; n != 1 {
		t.Errorf("calls %d", n)
	}
}

// silentRefusal refuses every water-park refund under HTTP 200 without a
// text of its own.
type silentRefusal struct{ handlers.Provider }

func (silentRefusal) RefundAqua(context.Context, gateway.AquaRefundRequest) (string, error) {
	return "", &gateway.ProviderError{Op: "refund aqua", Status: http.StatusOK}
}

func TestRefundAquaFailures(t *testing.T) {
	tickets := func(a *app) url.Values {
		return url.Values{"tickets": a.ticketIDs(sandbox.DemoGUID, sandbox.DemoAquaPaid, gateway.TicketPaid)[:1]}
	}
	for _, tc := range []struct {
		name  string
		fault sandbox.Fault
		want  string
	}{
		{"500 with JSON", sandbox.Fault{Status: http.StatusInternalServerError}, "Ошибка при регистрации возврата: Сервис временно недоступен (sandbox fault)"},
		{"502 not JSON", sandbox.Fault{Status: http.StatusBadGateway, Malformed: true}, "Ошибка при регистрации возврата: HTTP 502"},
		{"400 not JSON", sandbox.Fault{Status: http.StatusBadRequest, Malformed: true}, "Ошибка при регистрации возврата: HTTP 400"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := signedIn(t)
			a.sb.SetFault("aqua/registerRefund1C", tc.fault)
			r := a.submitRefund(a.client, "aqua", sandbox.DemoAquaPaid, tickets(a), nil)
			if r.text(".notice-err") != tc.want || a.sb.AllCalls()["aqua/registerRefund1C"] != 1 {
				t.Errorf("%d %q, calls %d", r.StatusCode, r.text(".notice-err"), a.sb.AllCalls()["aqua/registerRefund1C"])
			}
		})
	}
	t.Run("200 without a text", func(t *testing.T) {
		a := newAppWith(t, func(p handlers.Provider) handlers.Provider { return silentRefusal{p} })
		a.signIn(a.client, demoPhone)
		r := a.submitRefund(a.client, "aqua", sandbox.DemoAquaPaid, tickets(a), nil)
		if r.text(".notice-err") != "Произошла ошибка при оформлении возврата" {
			t.Errorf("%d %q", r.StatusCode, r.text(".notice-err"))
		}
	})
}

// A refund the order no longer allows is refused by the guard (409), even
// with a form that was good when it was shown.
func TestRefundNoLongerAllowed(t *testing.T) {
	a := signedIn(t)
	action := "/orders/hotel/" + sandbox.DemoHotelPaid + "/refund"
	form := a.get(action).browserForm(action)
	// The stay is refunded behind the page's back.
	gw, _ := gateway.NewClient(a.sbSrv.URL + "/v1")
	if _, err := gw.RefundHotel(t.Context(), gateway.HotelRefundRequest{OrderID: sandbox.DemoHotelPaid}); err != nil {
		t.Fatal(err)
	}
	a.sb.Reset()
	r := a.postFiles(a.client, action, form, nil)
	if r.StatusCode != http.StatusConflict || r.text(".notice-err") != "По этому заказу возврат оформить нельзя." {
		t.Errorf("refund of a cancelled stay: %d %q", r.StatusCode, r.text(".notice-err"))
	}
	if n := a.sb.AllCalls()["hotel/registerRefund"]; n != 0 {
		t.Errorf("the provider was called %d times", n)
	}
}

// A document kept from a refused attempt and attached again is one
// document: kept once, sent once.
func TestRefundKeptFileAttachedAgain(t *testing.T) {
	a := signedIn(t)
	id := sandbox.DemoAquaToday
	action := "/orders/aqua/" + id + "/refund"
	f1, f2 := doc("справка.pdf", 3000), doc("скан.jpg", 4000)
	tickets := url.Values{"tickets": a.ticketIDs(sandbox.DemoGUID, id, gateway.TicketPaid)[:1]}
	// No reason: refused, the file kept.
	r := a.submitRefund(a.client, "aqua", id, tickets, []upload{f1})
	if r.StatusCode != http.StatusUnprocessableEntity || r.doc.Find(`button[name="remove"]`).Length() != 1 {
		t.Fatalf("refusal: %d, %d kept", r.StatusCode, r.doc.Find(`button[name="remove"]`).Length())
	}
	// The same file attached again, a copy of it under another name, and
	// a new one; refused again.
	again := f1
	again.name = "копия справки.pdf"
	r = a.resubmit(a.client, r, action, nil, []upload{f1, again, f2})
	if r.StatusCode != http.StatusUnprocessableEntity || r.doc.Find(`button[name="remove"]`).Length() != 2 {
		t.Fatalf("refused again: %d, %d kept, want 2", r.StatusCode, r.doc.Find(`button[name="remove"]`).Length())
	}
	r = a.resubmit(a.client, r, action, url.Values{"comment": {"Заболел"}}, []upload{f2})
	if r.StatusCode != http.StatusSeeOther {
		t.Fatalf("refund: %d %q", r.StatusCode, r.text(".notice-err, #error-summary"))
	}
	sameDocs(t, a.lastRefund().Documents, f1, f2)
}

// newKeptApp is the app with every order starting today (a refund asks for
// documents) and its kept documents in files.
func newKeptApp(t *testing.T, files func(now func() time.Time) store.RefundFiles) *app {
	t.Helper()
	var a *app
	a = newAppSetup(t, setup{
		wrap: func(p handlers.Provider) handlers.Provider {
			return startingOn{p, 0, func() time.Time { return a.clock.Now() }}
		},
		options: func(o *handlers.Options) { o.Files = files(o.Now) },
	})
	return a
}

// storeFor is a store of kept documents holding at most limit bytes: one
// instance's memory, or a real Redis.
func storeFor(t *testing.T, name string, limit int) func(now func() time.Time) store.RefundFiles {
	if name == "redis" {
		r := redistest.Start(t, redistest.Volatile...).Open()
		return func(func() time.Time) store.RefundFiles { return r.FilesWithin(limit) }
	}
	return func(now func() time.Time) store.RefundFiles { return store.NewMemoryRefundFilesWithin(now, limit) }
}

// keptNames are the documents a refund page lists as kept.
func keptNames(p *resp) []string {
	var names []string
	buttons := p.doc.Find(`button[name="remove"]`)
	for i := range buttons.Length() {
		names = append(names, buttons.Eq(i).AttrOr("value", ""))
	}
	return names
}

// One customer signed in four times keeps at most 25 MB over the four
// sessions; another customer's documents are still kept meanwhile.
func TestKeptDocumentsPerCustomer(t *testing.T) {
	for _, name := range []string{"memory", "redis"} {
		t.Run(name, func(t *testing.T) {
			a := newKeptApp(t, storeFor(t, name, 200<<20))
			action := "/orders/aqua/" + sandbox.DemoAquaToday + "/refund"
			kept := 0
			for s := range 4 {
				c := a.newClient()
				a.signIn(c, demoPhone)
				files := []upload{doc(string(rune('a'+s))+"1.pdf", 6<<20), doc(string(rune('a'+s))+"2.pdf", 6<<20), doc(string(rune('a'+s))+"3.pdf", 6<<20)}
				r := a.submitRefund(c, "aqua", sandbox.DemoAquaToday, nil, files) // no reason: refused, documents kept
				if r.StatusCode != http.StatusUnprocessableEntity {
					t.Fatalf("session %d: %d", s+1, r.StatusCode)
				}
				n := len(keptNames(a.getWith(c, action)))
				if n < 3 && !strings.Contains(r.text("#documents-error"), "не сохранён: уже приложено 10 файлов или 25 МБ") {
					t.Errorf("session %d: %d of 3 kept, and no word why: %q", s+1, n, r.text("#documents-error"))
				}
				kept += n
			}
			if kept != 4 { // 4 × 6 MB = 24 MB; a fifth would be 30
				t.Fatalf("one customer over four sessions keeps %d documents of 6 MB, want 4", kept)
			}
			other := a.newClient()
			a.signIn(other, sandbox.OtherPhone)
			r := a.submitRefund(other, "aqua", sandbox.OtherAqua, nil, []upload{doc("other.pdf", 6<<20)})
			if r.StatusCode != http.StatusUnprocessableEntity || len(keptNames(r)) != 1 {
				t.Errorf("another customer while the first is at their ceiling: %d, %d kept, %q", r.StatusCode, len(keptNames(r)), r.text("#documents-error"))
			}
		})
	}
}

// Beyond the server's room for everyone, the customer is told that the
// server cannot keep documents now, not that they sent too many.
func TestKeptDocumentsServerFull(t *testing.T) {
	for _, name := range []string{"memory", "redis"} {
		t.Run(name, func(t *testing.T) {
			a := newKeptApp(t, storeFor(t, name, 1<<20))
			a.signIn(a.client, demoPhone)
			r := a.submitRefund(a.client, "aqua", sandbox.DemoAquaToday, nil, []upload{doc("a.pdf", 700<<10), doc("b.pdf", 700<<10), doc("c.pdf", 700<<10)})
			if r.StatusCode != http.StatusUnprocessableEntity || len(keptNames(r)) != 1 {
				t.Fatalf("%d, %d kept", r.StatusCode, len(keptNames(r)))
			}
			got := r.text("#documents-error")
			if !strings.Contains(got, "Сейчас сервер не может сохранить ваши документы") || strings.Contains(got, "уже приложено") ||
				strings.Count(r.text("main"), "Сейчас сервер не может сохранить") != 2 { // at the field and in the summary, once each
				t.Errorf("documents error %q", got)
			}
		})
	}
}

// A refund form that takes no documents (before the start date) reads
// none, keeps none and sends none, whatever is posted to it.
func TestNoDocumentsForADirectRefund(t *testing.T) {
	a := signedIn(t)
	action := "/orders/hotel/" + sandbox.DemoHotelPaid + "/refund"
	if a.get(action).doc.Find(`input[type="file"]`).Length() != 0 {
		t.Fatal("the direct refund form asks for documents")
	}
	r := a.submitRefund(a.client, "hotel", sandbox.DemoHotelPaid, url.Values{"surname": {""}}, []upload{doc("unseen.pdf", 1000)})
	if r.StatusCode != http.StatusUnprocessableEntity || len(keptNames(r)) != 0 || strings.Contains(r.body, "unseen.pdf") {
		t.Fatalf("refused form: %d, %d kept", r.StatusCode, len(keptNames(r)))
	}
	r = a.resubmit(a.client, r, action, url.Values{"surname": {"Петрова"}}, []upload{doc("later.pdf", 1000)})
	if r.StatusCode != http.StatusSeeOther {
		t.Fatalf("refund: %d %s", r.StatusCode, r.text("main"))
	}
	if got := a.lastRefund().Documents; len(got) != 0 {
		t.Errorf("the provider got %d documents with a refund that takes none", len(got))
	}
}

// What the form accepts, the provider call carries: a moderated water-park
// refund with 24 MB of documents is registered with all of them. The
// sandbox decodes 35 MB of JSON: under the race detector on a busy machine
// that takes longer than the default deadline, which is not what is tested.
func TestRefundOfTheSizeTheFormAllows(t *testing.T) {
	var a *app
	a = newAppSetup(t, setup{
		wrap: func(p handlers.Provider) handlers.Provider {
			return startingOn{p, 0, func() time.Time { return a.clock.Now() }}
		},
		gateway: []gateway.Option{gateway.WithTimeouts(3*time.Second, time.Minute)},
	})
	a.signIn(a.client, demoPhone)
	files := []upload{doc("справка.pdf", 8<<20), doc("выписка.pdf", 8<<20), doc("паспорт.jpg", 8<<20)}
	r := a.submitRefund(a.client, "aqua", sandbox.DemoAquaToday, url.Values{"comment": {"Заболел ребёнок"}}, files)
	if r.StatusCode != http.StatusSeeOther {
		t.Fatalf("24 MB of documents: %d %q", r.StatusCode, r.text(".notice-err"))
	}
	sameDocs(t, a.lastRefund().Documents, files...)
}

// After a failed refund the address bar shows no token: the form's URL
// carries only a short id, and the same form sent again gets the first
// outcome without a second provider call.
func TestRefundURLCarriesNoToken(t *testing.T) {
	a := newAppStartingOn(t, 0)
	a.signIn(a.client, demoPhone)
	action := "/orders/aqua/" + sandbox.DemoAquaToday + "/refund"
	p := a.get(action)
	first := p.formAction(action)
	a.sb.SetFault("aqua/registerRefund1C", sandbox.Fault{Status: http.StatusInternalServerError})
	extra := url.Values{"comment": {"Заболел ребёнок"}}
	r := a.resubmit(a.client, p, action, extra, []upload{doc("справка.pdf", 1000)})
	if r.StatusCode != http.StatusBadGateway {
		t.Fatalf("failed refund: %d %q", r.StatusCode, r.text(".notice-err"))
	}
	for _, u := range []string{first, r.formAction(action)} { // the address bar after the POST, and the next one
		if strings.Contains(u, "token") || len(u) > len(action)+40 {
			t.Errorf("the form's URL %q carries more than a short id", u)
		}
	}
	// The same form again, as a browser's reload of the POST would send it.
	again := a.resubmit(a.client, p, action, extra, []upload{doc("справка.pdf", 1000)})
	if again.StatusCode != http.StatusBadGateway || a.sb.AllCalls()["aqua/registerRefund1C"] != 1 {
		t.Errorf("the same form again: %d, %d provider calls", again.StatusCode, a.sb.AllCalls()["aqua/registerRefund1C"])
	}
	a.sb.SetFault("aqua/registerRefund1C", sandbox.Fault{})
	if ok := a.resubmit(a.client, r, action, nil, nil); ok.StatusCode != http.StatusSeeOther {
		t.Fatalf("the next form: %d %s", ok.StatusCode, ok.text("main"))
	}
	sameDocs(t, a.lastRefund().Documents, doc("справка.pdf", 1000))
}

// The documents' picker is a large label in our words over the browser's
// control, which stays in the form (it is what posts the files, with
// JavaScript or without); the page loads the script that names the
// chosen files.
func TestRefundFilePicker(t *testing.T) {
	a := newAppStartingOn(t, 0)
	a.signIn(a.client, demoPhone)
	p := a.get("/orders/aqua/" + sandbox.DemoAquaToday + "/refund")
	input := p.doc.Find(`.picker input[type="file"][name="documents"][multiple]#documents`)
	label := p.doc.Find(`.picker label.picker-btn[for="documents"]`)
	if input.Length() != 1 || strings.TrimSpace(label.Text()) != "Выбрать файлы" || p.doc.Find(`.picker output[for="documents"]`).Length() != 1 {
		t.Fatalf("picker: %d inputs, label %q", input.Length(), label.Text())
	}
	if input.AttrOr("data-enhance", "") != "files" || !strings.Contains(p.body, `type="module"`) {
		t.Error("the page does not load the script that names the chosen files")
	}
	r := a.submitRefund(a.client, "aqua", sandbox.DemoAquaToday, nil, []upload{doc("справка.pdf", 1000)})
	if got := strings.TrimSpace(r.doc.Find(`label.picker-btn`).Text()); got != "Добавить файлы" {
		t.Errorf("with a file kept the label says %q", got)
	}
}

// The same refund form sent many times at once (a double tap, a flaky
// link) that breaks a rule gives every copy what the first got: the form
// again with 422 and the field's error, never a server error, and nothing
// reaches the provider.
func TestRepeatedRefundWithABrokenRule(t *testing.T) {
	a := signedIn(t)
	for _, tc := range refundKinds {
		t.Run(tc.kind, func(t *testing.T) {
			action := "/orders/" + tc.kind + "/" + tc.id + "/refund"
			page := a.get(action)
			form, post := page.browserForm(action), page.formAction(action)
			form.Set("surname", "")
			if tc.kind == "aqua" {
				form["tickets"] = a.ticketIDs(sandbox.DemoGUID, tc.id, gateway.TicketPaid)[:1]
			}
			answers := atOnce(20, func(int) *resp { return a.postFiles(a.client, post, form, nil) })
			for i, r := range answers {
				if r.StatusCode != http.StatusUnprocessableEntity || r.text("#error-summary a[href='#surname']") != "Укажите фамилию" ||
					r.text("#surname-error") != "Ошибка: Укажите фамилию" {
					t.Errorf("answer %d: %d, summary %q, field %q", i, r.StatusCode, r.text("#error-summary"), r.text("#surname-error"))
				}
			}
			if n := a.sb.AllCalls()[tc.call]; n != 0 {
				t.Errorf("the provider was asked %d times", n)
			}
		})
	}
}

// A customer's second refund of 24 MB right after the first (the first
// answered, nothing else uploading) is taken, even when the server has
// room for one such upload only: the first's room is given back by the
// time its answer arrives.
func TestSequentialLargeRefundsOfOneSession(t *testing.T) {
	var a *app
	a = newAppSetup(t, setup{
		wrap: func(p handlers.Provider) handlers.Provider {
			return startingOn{p, 0, func() time.Time { return a.clock.Now() }}
		},
		gateway: []gateway.Option{gateway.WithTimeouts(3*time.Second, time.Minute)},
		options: func(o *handlers.Options) { o.UploadBudget = 25 << 20 }, // room for one upload at a time
	})
	a.signIn(a.client, demoPhone)
	files := []upload{doc("справка.pdf", 8<<20), doc("выписка.pdf", 8<<20), doc("паспорт.jpg", 8<<20)}
	for _, id := range []string{sandbox.DemoAquaToday, sandbox.DemoAquaPaid} {
		r := a.submitRefund(a.client, "aqua", id, url.Values{"comment": {"Заболел ребёнок"},
			"tickets": a.ticketIDs(sandbox.DemoGUID, id, gateway.TicketPaid)[:1]}, files)
		if r.StatusCode != http.StatusSeeOther {
			t.Fatalf("refund of %s: %d %q %q", id, r.StatusCode, r.text(".notice-err"), r.text("#error-summary"))
		}
	}
}

// A refund sent right after one refused for a text field too long (413) is
// judged on its own: the first's room is given back before its answer is
// written, never a 503 'server busy'. Many pairs in a row, as a customer
// who shortens his comment and sends again at once.
func TestRefundRightAfterATooLongFieldIsJudgedOnItsOwn(t *testing.T) {
	a := signedIn(t)
	action := "/orders/aqua/" + sandbox.DemoAquaPaid + "/refund"
	page := a.get(action)
	form, post := page.browserForm(action), page.formAction(action)
	form["tickets"] = a.ticketIDs(sandbox.DemoGUID, sandbox.DemoAquaPaid, gateway.TicketPaid)[:1]
	long := maps.Clone(form)
	long.Set("comment", strings.Repeat("очень долго ", 100<<10/len("очень долго ")))
	form.Set("surname", "") // refused by the rules, so the pair can be sent again
	for i := range 30 {
		if r := a.postFiles(a.client, post, long, nil); r.StatusCode != http.StatusRequestEntityTooLarge {
			t.Fatalf("pair %d, the long field: %d %q", i, r.StatusCode, r.text("main"))
		}
		if r := a.postFiles(a.client, post, form, nil); r.StatusCode != http.StatusUnprocessableEntity || r.text("#surname-error") != "Ошибка: Укажите фамилию" {
			t.Fatalf("pair %d, the next refund: %d %q %q", i, r.StatusCode, r.text(".notice-err"), r.text("#error-summary"))
		}
	}
	if m := a.metrics(); strings.Contains(m, "lk_uploads_refused_total{") {
		t.Errorf("refusals counted:\n%s", m)
	}
}
