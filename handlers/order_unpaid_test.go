package handlers_test

import (
	"strings"
	"testing"

	"lk/gateway/sandbox"
)

// An upcoming water-park order with tickets awaiting payment says, beside
// its tickets, why they are not there and how to pay (the account takes no
// payment: the resort's support says how), and offers no ticket to fail.
func TestUnpaidOrderSaysWhatToDo(t *testing.T) {
	a := signedIn(t)
	r := a.get("/orders/aqua/" + sandbox.DemoAquaUnpaid)
	note := r.doc.Find("article.card [data-unpaid]")
	if note.Length() != 1 {
		t.Fatalf("no note on the unpaid order: %q", r.text("article.card"))
	}
	text := strings.Join(strings.Fields(note.Text()), " ")
	for _, want := range []string{
		"Билет будет доступен после оплаты всех билетов заказа.",
		"Оплатить заказ в личном кабинете нельзя: как его оплатить, подскажут в службе поддержки по телефону +7 (800) 000-00-00.",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the note %q lacks %q", text, want)
		}
	}
	if href := note.Find("a").AttrOr("href", ""); href != "tel:+78000000000" {
		t.Errorf("the support phone's link %q", href)
	}
	if r.doc.Find(`a[href$="ticket.pdf"], a[href$=".pkpass"], a[href$=".pkpasses"]`).Length() != 0 || strings.Contains(r.text("main"), "Мой билет") {
		t.Error("a ticket offered that can only fail")
	}
	// The note stands before the tickets it speaks of, after the buttons.
	html, _ := r.doc.Find("article.card").Html()
	if n, tickets := strings.Index(html, "data-unpaid"), strings.Index(html, "<h2>Билеты</h2>"); n < 0 || tickets < n {
		t.Errorf("the note at %d, the tickets at %d", n, tickets)
	}
	// Paid and cancelled orders say nothing of payment.
	for _, id := range []string{sandbox.DemoAquaPaid, sandbox.DemoAquaCanceled, sandbox.DemoAquaVIPRefunded} {
		if r := a.get("/orders/aqua/" + id); r.doc.Find("[data-unpaid]").Length() != 0 || strings.Contains(r.body, "Оплатить заказ") {
			t.Errorf("%s: a payment note on an order that needs none", id)
		}
	}
}
