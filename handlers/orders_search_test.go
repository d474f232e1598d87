package handlers_test

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"lk/gateway"
	"lk/gateway/sandbox"
)

// A customer on the phone with support has the order's number: the list
// finds that order of theirs, among 309, at the cost of the list (one call
// per kind), however the number is typed; another customer finds nothing of
// theirs.
func TestOrdersSearchByNumber(t *testing.T) {
	a := manyOrders(t)
	all := a.get("/orders?page=16")
	ids := map[string]string{} // id: kind
	all.doc.Find(`li.oc`).Each(func(_ int, li *goquery.Selection) { ids[li.AttrOr("data-id", "")] = li.AttrOr("data-kind", "") })
	past := all.historyCards()[150] // far past the first page
	_, pastID, _ := strings.Cut(past, "/")
	number := sandbox.DemoAquaPaid // an active one
	if ids[number] == "" || len(number) != 6 {
		t.Fatalf("the demo customer has no order № %s among %d", number, len(ids))
	}
	spaced := "№ " + number[:3] + " " + number[3:]
	for _, typed := range []string{number, spaced, " #" + number + " ", pastID} {
		if typed == pastID {
			number = pastID
		}
		a.sb.Reset()
		r := a.get("/orders?q=" + url.QueryEscape(typed))
		if r.StatusCode != http.StatusOK {
			t.Fatalf("q=%q: %d", typed, r.StatusCode)
		}
		found := r.doc.Find(`#found li.oc`)
		if found.Length() != 1 || found.AttrOr("data-id", "") != number || found.AttrOr("data-kind", "") != ids[number] {
			t.Errorf("q=%q found %d cards: %q", typed, found.Length(), r.text("#found"))
		}
		if r.doc.Find(`#history, section[aria-labelledby="active-h"]`).Length() != 0 {
			t.Errorf("q=%q: the blocks are shown beside what was found", typed)
		}
		if v := r.doc.Find(`form.filter input[name="q"]`).AttrOr("value", ""); v != number {
			t.Errorf("q=%q: the field keeps %q", typed, v)
		}
		for _, p := range orderCalls {
			if n := a.sb.AllCalls()[p]; n != 1 {
				t.Errorf("q=%q: %s called %d times, want 1", typed, p, n)
			}
		}
	}
	// The kind and year chosen before do not hide the order asked for.
	if r := a.get("/orders?kind=hotel&year=2001&q=" + sandbox.DemoAquaPaid); r.doc.Find(`#found li.oc`).Length() != 1 {
		t.Errorf("with another kind and year chosen: %q", r.text("#found"))
	}
	if r := a.get("/orders?q=999999"); r.doc.Find(`#found li.oc`).Length() != 0 || !strings.Contains(r.text("#found"), "Заказа с таким номером нет среди ваших заказов") {
		t.Errorf("an unknown number: %q", r.text("#found"))
	}

	other := a.newClient()
	a.signIn(other, otherPhone)
	for _, number := range []string{sandbox.DemoAquaPaid, pastID} {
		r := a.getWith(other, "/orders?q="+number)
		if r.StatusCode != http.StatusOK || r.doc.Find(`#found li.oc`).Length() != 0 || strings.Contains(r.body, `data-id="`+number+`"`) {
			t.Errorf("another customer finds %d cards: %q", r.doc.Find(`#found li.oc`).Length(), r.text("#found"))
		}
	}
}

// A filter whose orders are all past shows them under 'История заказов'
// and says above them only that none is active, never 'Заказов не найдено'.
func TestOrdersNoEmptyTextAboveFound(t *testing.T) {
	a := manyOrders(t)
	year := a.clock.Now().In(gateway.ResortLocation()).Year() - 1
	r := a.get("/orders?year=" + strconv.Itoa(year))
	if len(r.historyCards()) == 0 {
		t.Fatalf("no orders of %d", year)
	}
	if strings.Contains(r.text("main"), "Заказов не найдено") {
		t.Errorf("'Заказов не найдено' above %d orders", len(r.historyCards()))
	}
	if got := r.text(`section[aria-labelledby="active-h"] p`); got != "Активных заказов нет." {
		t.Errorf("the active block says %q", got)
	}
}
